// Package protocol holds the operator's pre-registered protocol: grades of
// the sentinel's flags, replay of the whole register under the running
// catalog with a must-keep gate, and predictions read on a stated date.
//
// The protocol file is TOML (see docs/protocol.md and
// testdata/protocol/week12.toml). It is written before the reading and its
// hash is sealed in Rekor, so anyone can check that the predictions were not
// adjusted to the data afterwards.
package protocol
