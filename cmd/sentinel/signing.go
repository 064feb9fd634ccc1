package main

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/seal"
)

// The environment variables that point sentinel at a private Rekor. The
// key's is cosign's, so one setting serves both tools.
const (
	envRekorURL = "SENTINEL_REKOR_URL"
	envRekorKey = "SIGSTORE_REKOR_PUBLIC_KEY"
)

// sealTarget resolves what every sealing command needs: the Rekor URL
// (--rekor-url when given, else $SENTINEL_REKOR_URL, else seal.toml's
// rekor_url, else the public-good log) and the operator's signing key
// (--key, else the keygen default). Errors come back as the command's exit
// error.
func sealTarget(cmd *cobra.Command, rekorURL, keyFlag string) (string, *ecdsa.PrivateKey, error) {
	cfg, _, err := loadSealConfig()
	if err != nil {
		return "", nil, fail(exitUsage, "%v", err)
	}
	if !cmd.Flags().Changed("rekor-url") {
		if u := os.Getenv(envRekorURL); u != "" {
			rekorURL = u
		} else if cfg.Seal.RekorURL != "" {
			rekorURL = cfg.Seal.RekorURL
		}
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

// rekorKey resolves the Rekor key verify pins: --rekor-key, else
// $SIGSTORE_REKOR_PUBLIC_KEY, else seal.toml's rekor_public_key, else the
// public-good key built in. It returns where the key came from, for the
// report and the hint on failure.
func rekorKey(flag string) (*seal.RekorKey, string, error) {
	path, from := flag, "--rekor-key"
	if path == "" {
		path, from = os.Getenv(envRekorKey), "$"+envRekorKey
	}
	if path == "" {
		cfg, cfgPath, err := loadSealConfig()
		if err != nil {
			return nil, "", fail(exitUsage, "%v", err)
		}
		path, from = cfg.Seal.RekorPublicKey, cfgPath+" rekor_public_key"
	}
	if path == "" {
		from = "the public-good key built in"
	}
	rk, err := seal.LoadRekorKey(path)
	if err != nil {
		return nil, from, fail(exitError, "Rekor key from %s: %v", from, err)
	}
	return rk, from, nil
}

// rekorKeyHint is said when a seal does not verify against the pinned key.
func rekorKeyHint(from string) string {
	return "the Rekor key pinned is " + from + "; for a private log pin its key with --rekor-key FILE, " +
		"$" + envRekorKey + "=FILE or rekor_public_key in seal.toml"
}
