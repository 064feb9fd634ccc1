package main

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/seal"
)

// sealTarget resolves what every sealing command needs: the Rekor URL
// (the --rekor-url flag when given, else seal.toml, else the public-good
// log) and the operator's signing key (--key, else the keygen default).
// Errors come back as the command's exit error.
func sealTarget(cmd *cobra.Command, rekorURL, keyFlag string) (string, *ecdsa.PrivateKey, error) {
	cfg, _, err := loadSealConfig()
	if err != nil {
		return "", nil, fail(exitUsage, "%v", err)
	}
	if !cmd.Flags().Changed("rekor-url") && cfg.Seal.RekorURL != "" {
		rekorURL = cfg.Seal.RekorURL
	}
	keyPath, err := sealKeyPath(keyFlag)
	if err != nil {
		return "", nil, fail(exitError, "%v", err)
	}
	key, err := seal.LoadKey(keyPath, func() ([]byte, error) { return keyPassword(cmd.ErrOrStderr(), false) })
	if errors.Is(err, seal.ErrUnencrypted) {
		fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: warning: %v\n", err)
		err = nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, failCode("no_key", "no signing key at %s: run 'sentinel keygen' first", keyPath)
	} else if err != nil {
		return "", nil, fail(exitError, "signing key: %v", err)
	}
	return rekorURL, key, nil
}
