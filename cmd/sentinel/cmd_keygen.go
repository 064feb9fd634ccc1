package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/seal"
)

// sealKeyPath is --key or the default signing key path.
func sealKeyPath(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	return paths.KeyPath()
}

func newKeygenCmd() *cobra.Command {
	var keyFlag string
	var unencrypted bool
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "keygen",
		Short: "Create the operator's signing key for seals (encrypted)",
		Long: `keygen creates the operator's signing key: an ECDSA P-256 key that signs every
seal (the checkpoint uploaded to Rekor). The private key is encrypted with a
password in the format cosign uses ("ENCRYPTED SIGSTORE PRIVATE KEY": scrypt
and NaCl secretbox over the PKCS#8 key; cosign reads it, and sentinel reads
keys made by cosign generate-key-pair). The password comes from
$SENTINEL_PASSWORD (cosign's convention is COSIGN_PASSWORD), else a prompt at
the terminal; every seal needs it again the same way. --unencrypted writes plain
PEM PKCS#8 instead, for a key kept by another account (docs/threat-model.md);
sentinel warns each time it loads an unencrypted key.

The key is written with mode 0600 in a 0700 directory, the public key beside it
with the suffix ".pub". keygen never overwrites an existing key: every earlier
seal is tied to it. Keep a backup of the private key and its password; publish
the fingerprint so that readers of your bundles can pin it. One key seals one
register (verify --online relies on it).

Default location: $XDG_CONFIG_HOME/sentinel/signing.key (else
~/.config/sentinel/signing.key). The rule catalog denies the agent reading,
copying or archiving these files, with any tool or interpreter.

Exit codes: 0 created; 4 the key exists already, could not be written, or no
password was available.`,
		Example: `  sentinel keygen                          # prompts for the password
  SENTINEL_PASSWORD=... sentinel keygen    # unattended
  sentinel keygen --key /secure/sentinel-ci.key
  sentinel keygen --unencrypted --key /home/sealer/signing.key   # owned by another account
  sentinel keygen --json | jq -r .fingerprint    # the fingerprint to publish`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := sealKeyPath(keyFlag)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			var pass []byte
			if !unencrypted {
				if pass, err = keyPassword(cmd.ErrOrStderr(), true); err != nil {
					return fail(exitError, "keygen: %v (or --unencrypted, see --help)", err)
				}
			}
			key, err := seal.GenerateKey(path, pass)
			if err != nil {
				return fail(exitError, "keygen: %v", err)
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return protoJSON(w, map[string]any{"key": path, "public_key": seal.PublicKeyPath(path),
					"fingerprint": seal.Fingerprint(&key.PublicKey), "encrypted": !unencrypted})
			}
			how := "encrypted"
			if unencrypted {
				how = "NOT encrypted"
			}
			fmt.Fprintf(w, "signing key: %s (0600, %s)\n", path, how)
			fmt.Fprintf(w, "public key:  %s\n", seal.PublicKeyPath(path))
			fmt.Fprintf(w, "fingerprint: %s\n", seal.Fingerprint(&key.PublicKey))
			return nil
		},
	}
	cmd.Flags().StringVar(&keyFlag, "key", "", "write the key to this file instead of the default")
	cmd.Flags().BoolVar(&unencrypted, "unencrypted", false, "write the private key without a password (for a key owned by another account)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the paths and the fingerprint to publish as JSON")
	return cmd
}
