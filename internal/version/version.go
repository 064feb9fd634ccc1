// Package version holds the sentinel version recorded in every entry.
package version

// Version is set at build time with -ldflags "-X .../internal/version.Version=...".
var Version = "0.1.0-dev"

// Commit is the commit the binary was built from, set by the Makefile
// (-ldflags "-X .../internal/version.Commit=$(git rev-parse HEAD)"), for
// builds where Go's own VCS stamping is off (-buildvcs=false, a build
// outside the work tree). Empty: not set.
var Commit = ""
