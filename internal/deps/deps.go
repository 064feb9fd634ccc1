//go:build deps

// Package deps pins the project's chosen dependencies in go.mod while the
// packages that use them are being written. It is never built.
package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/mattn/go-sqlite3"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/sigstore/rekor/pkg/client"
	_ "github.com/sigstore/rekor/pkg/types/hashedrekord/v0.0.1"
	_ "github.com/sigstore/rekor/pkg/util"
	_ "github.com/sigstore/rekor/pkg/verify"
	_ "github.com/sigstore/sigstore/pkg/cryptoutils"
	_ "github.com/sigstore/sigstore/pkg/signature"
	_ "github.com/spf13/cobra"
	_ "github.com/transparency-dev/merkle/compact"
	_ "github.com/transparency-dev/merkle/testonly"
	_ "mvdan.cc/sh/v3/syntax"
)
