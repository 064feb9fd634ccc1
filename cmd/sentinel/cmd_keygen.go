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
	cmd := &cobra.Command{
		Use:   "keygen",
		Short: "Create the operator's signing key for seals",
		Long: `keygen creates the operator's signing key: an ECDSA P-256 key that signs every
seal (the checkpoint uploaded to Rekor). The private key is written as PEM
(PKCS#8) with mode 0600 in a 0700 directory, the public key beside it with the
suffix ".pub". keygen never overwrites an existing key: every earlier seal is
tied to it. Keep a backup of the private key; publish the fingerprint so that
readers of your bundles can pin it.

Default location: $XDG_CONFIG_HOME/sentinel/signing.key (else
~/.config/sentinel/signing.key). The rule catalog denies the agent reading or
writing these files.

Exit codes: 0 created; 4 the key exists already or could not be written.`,
		Example: `  sentinel keygen
  sentinel keygen --key /secure/sentinel-ci.key`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := sealKeyPath(keyFlag)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			key, err := seal.GenerateKey(path)
			if err != nil {
				return fail(exitError, "keygen: %v", err)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "signing key: %s (0600)\n", path)
			fmt.Fprintf(w, "public key:  %s\n", seal.PublicKeyPath(path))
			fmt.Fprintf(w, "fingerprint: %s\n", seal.Fingerprint(&key.PublicKey))
			return nil
		},
	}
	cmd.Flags().StringVar(&keyFlag, "key", "", "write the key to this file instead of the default")
	return cmd
}
