package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
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
	var keyFlag, rekorURL string
	var unencrypted, rotate bool
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

--rotate changes the key of a sealed register. A new key cannot simply
replace the old one: readers pin the old key's fingerprint, and a register
whose seals change key is a different operator (verify fails, naming it). So
--rotate makes a new key and has the OLD key sign a key rotation statement
(the register id, the register position it hands over at: the old key's last
seal and its size, both fingerprints, the new key itself, the time), seals
that statement in the log (the same log as seal: --rekor-url, else
$SENTINEL_REKOR_URL, else seal.toml), and only then puts the new key in the
old one's place; the old key is kept beside it as <key>.retired-<12 hex of
its fingerprint> (+ .pub). verify follows the chain: a reader pinned to the
old key accepts the new key's seals after the statement's position, and only
those (a retired key's later seals fail, as do seals made by the new key
before the statement was in the log). Pinning the new fingerprint works too.
The new key gets the same password (and is encrypted unless --unencrypted).
A pending register seal must be uploaded first (sentinel seal). If the log
cannot be reached the statement is kept pending, the new key waits in
<key>.new, sealing is refused, and running --rotate again uploads it.

Default location: $XDG_CONFIG_HOME/sentinel/signing.key (else
~/.config/sentinel/signing.key). The rule catalog denies the agent reading,
copying or archiving these files, with any tool or interpreter.

Exit codes: 0 created (or rotated); 4 the key exists already, could not be
written, no password was available, or (--rotate) the log could not be
reached: the rotation is pending; 5 (--rotate) no register or no key.`,
		Example: `  sentinel keygen                          # prompts for the password
  SENTINEL_PASSWORD=... sentinel keygen    # unattended
  sentinel keygen --key /secure/sentinel-ci.key
  sentinel keygen --unencrypted --key /home/sealer/signing.key   # owned by another account
  sentinel keygen --json | jq -r .fingerprint    # the fingerprint to publish
  sentinel keygen --rotate                 # new key; the old one signs the hand-over, sealed in the log
  sentinel keygen --rotate --rekor-url http://127.0.0.1:3000 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if rotate {
				return rotateKey(cmd, keyFlag, rekorURL, unencrypted, asJSON)
			}
			if cmd.Flags().Changed("rekor-url") {
				return fail(exitUsage, "keygen: --rekor-url goes with --rotate")
			}
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
	cmd.Flags().BoolVar(&rotate, "rotate", false, "replace the register's key: the old key signs a rotation to a new one, sealed in the log (see above)")
	cmd.Flags().StringVar(&rekorURL, "rekor-url", seal.DefaultRekorURL, "with --rotate: the log to seal the rotation in (default as sentinel seal)")
	return cmd
}

// rotateKey is keygen --rotate: a new key at <key>.new, the rotation signed
// by the old key and sealed, then the keys swapped (the old one retired
// beside them). Every step can be run again after a failure.
func rotateKey(cmd *cobra.Command, keyFlag, rekorURL string, unencrypted, asJSON bool) error {
	url, old, err := sealTarget(cmd, rekorURL, keyFlag)
	if err != nil {
		return err
	}
	path, err := sealKeyPath(keyFlag)
	if err != nil {
		return fail(exitError, "%v", err)
	}
	regPath, err := paths.RegisterPath()
	if err != nil {
		return fail(exitError, "%v", err)
	}
	if _, err := os.Stat(regPath); err != nil {
		return registerError(regPath, register.ErrNotExist)
	}
	reg, unlock, err := openLocked(regPath)
	if err != nil {
		return err
	}
	defer unlock()
	newPath := path + ".new"
	newKey, err := seal.LoadKey(newPath, func() ([]byte, error) { return keyPassword(cmd.ErrOrStderr(), false) })
	switch {
	case errors.Is(err, fs.ErrNotExist):
		var pass []byte
		if !unencrypted {
			if pass, err = keyPassword(cmd.ErrOrStderr(), false); err != nil {
				return fail(exitError, "keygen --rotate: %v", err)
			}
		}
		if newKey, err = seal.GenerateKey(newPath, pass); err != nil {
			return fail(exitError, "keygen --rotate: %v", err)
		}
	case errors.Is(err, seal.ErrUnencrypted):
	case err != nil:
		return fail(exitError, "keygen --rotate: the new key waiting at %s: %v", newPath, err)
	}
	rec, err := seal.SealRotation(context.Background(), reg.DB(), reg.ID(), seal.Options{RekorURL: url, Key: old}, &newKey.PublicKey)
	var ue *seal.UploadError
	switch {
	case errors.As(err, &ue):
		return fail(exitError, "keygen --rotate: the rotation is signed and kept, but %v; the new key waits at %s: run sentinel keygen --rotate again when the log is reachable (sealing is refused until then)", err, newPath)
	case err != nil:
		return fail(exitError, "keygen --rotate: %v", err)
	}
	retired := fmt.Sprintf("%s.retired-%s", path, seal.KeyID(&old.PublicKey)[:12])
	for _, mv := range [][2]string{{path, retired}, {seal.PublicKeyPath(path), seal.PublicKeyPath(retired)},
		{newPath, path}, {seal.PublicKeyPath(newPath), seal.PublicKeyPath(path)}} {
		if err := os.Rename(mv[0], mv[1]); err != nil {
			return fail(exitError, "keygen --rotate: the rotation is sealed (Rekor uuid %s), but moving %s to %s failed: %v; finish by hand: the new key is %s", rec.RekorUUID, mv[0], mv[1], err, newPath)
		}
	}
	var index any
	if e, err := rec.Entry(); err == nil {
		index = *e.LogIndex
	}
	w := cmd.OutOrStdout()
	out := map[string]any{"key": path, "public_key": seal.PublicKeyPath(path), "fingerprint": seal.Fingerprint(&newKey.PublicKey),
		"old_fingerprint": seal.Fingerprint(&old.PublicKey), "retired_key": retired, "after_entry": rec.Size,
		"rekor_url": rec.RekorURL, "rekor_uuid": rec.RekorUUID, "log_index": index}
	if asJSON {
		return protoJSON(w, out)
	}
	fmt.Fprintf(w, "rotated: %s hands over to %s after entry %d\n", out["old_fingerprint"], out["fingerprint"], rec.Size)
	fmt.Fprintf(w, "rotation sealed: Rekor log index %v, entry %s at %s\n", index, rec.RekorUUID, rec.RekorURL)
	fmt.Fprintf(w, "signing key: %s (the new key)\nretired key: %s\n", path, retired)
	fmt.Fprintln(w, "publish the new fingerprint beside the old one: readers pinned to either verify the whole register")
	return nil
}
