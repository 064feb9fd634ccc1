// Package version holds the sentinel version recorded in every entry.
package version

// Version is set at build time with -ldflags "-X .../internal/version.Version=...".
var Version = "0.1.0-dev"
