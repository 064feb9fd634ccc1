package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"io/fs"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// verifyFindings lets other checks add non-fatal findings to a verify
// report (for example breach findings); each runs after the chain and seals.
var verifyFindings = []func(rep *seal.Report, reg *register.Register, b *bundle.Bundle){breachFindings}

func newVerifyCmd() *cobra.Command {
	var bundlePath, rekorKeyPath, operatorKeyPath, keyFlag, rekorURL string
	var online, asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Verify the register's chain and its seals (offline by default)",
		Long: `verify checks the register, or an exported bundle with --bundle:

  1. the hash chain: every entry's hash matches its content and links to the
     previous entry (and, for disclosed entries, the input matches its
     commitment);
  2. every seal: the operator's signature on the checkpoint; Rekor's stored
     answer through Rekor's own verify code (signed entry timestamp, inclusion
     proof, checkpoint signature) against the pinned Rekor key; that the Rekor
     entry is a hashedrekord of exactly this checkpoint, signed by exactly the
     operator key, in the log whose id is the pinned key's; that the chain head
     and the Merkle root recomputed from the entries are the sealed ones (which
     also proves each sealed tree is a prefix of the next); that each seal names
     its predecessor;
  3. it reports entries after the last seal as unsealed, not as verified.

Offline by default, pinned to the public-good Rekor key built into sentinel
(--rekor-key for a private log). --online also fetches each seal's entry from
the live log and a consistency proof to its current tree.

The operator key is the public key beside the signing key (sentinel keygen);
for a bundle, the key inside the bundle, whose fingerprint is printed:
compare it with the one the operator published, or pin it with --operator-key.

Exit codes: 0 everything checked holds; 1 verification failed (the first
failure is named precisely, e.g. "entry 4711: hash does not match its
content"); 3 usage; 4 could not read the register, bundle or keys, or reach
the log with --online; 5 no register, or no operator key for a sealed one.`,
		Example: `  sentinel verify
  sentinel verify --bundle audit-2026-11.json
  sentinel verify --bundle audit.json --operator-key operator.pub --json
  sentinel verify --online`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			rk, err := seal.LoadRekorKey(rekorKeyPath)
			if err != nil {
				return fail(exitError, "Rekor key: %v", err)
			}
			var operator *ecdsa.PublicKey
			if operatorKeyPath != "" {
				if operator, err = seal.LoadPublicKey(operatorKeyPath); err != nil {
					return fail(exitError, "operator key: %v", err)
				}
			}
			var rep *seal.Report
			var recs []*seal.Record
			if bundlePath != "" {
				b, err := bundle.Read(bundlePath)
				if err != nil {
					return fail(exitError, "cannot read bundle %s: %v", bundlePath, err)
				}
				rep = b.Verify(ctx, bundlePath, seal.VerifyOptions{Operator: operator, Rekor: rk})
				recs = b.Records()
				for _, f := range verifyFindings {
					f(rep, nil, b)
				}
			} else {
				regPath, err := paths.RegisterPath()
				if err != nil {
					return fail(exitError, "%v", err)
				}
				reg, err := register.OpenReadOnly(regPath)
				if err != nil {
					return registerError(regPath, err)
				}
				defer reg.Close()
				if recs, err = seal.Records(reg.DB(), seal.SubjectRegister); err != nil {
					return fail(exitError, "cannot read the seals: %v", err)
				}
				if operator == nil && len(recs) > 0 {
					keyPath, err := sealKeyPath(keyFlag)
					if err != nil {
						return fail(exitError, "%v", err)
					}
					pub := seal.PublicKeyPath(keyPath)
					if operator, err = seal.LoadPublicKey(pub); errors.Is(err, fs.ErrNotExist) {
						return failCode("no_key", "the register has seals but there is no operator public key at %s: pass --operator-key", pub)
					} else if err != nil {
						return fail(exitError, "operator key: %v", err)
					}
				}
				rep, err = seal.VerifyRegister(ctx, reg, seal.VerifyOptions{Operator: operator, Rekor: rk})
				if err != nil {
					return fail(exitError, "%v", err)
				}
				for _, f := range verifyFindings {
					f(rep, reg, nil)
				}
			}
			var onlineErr error
			if online {
				rep.Online, onlineErr = seal.VerifyOnline(ctx, recs, rk, rekorURL)
				if onlineErr != nil {
					rep.Online = &seal.OnlineResult{URL: rekorURL, Error: onlineErr.Error()}
				} else if rep.Online.Error != "" && rep.OK {
					rep.OK, rep.Failure = false, "online: "+rep.Online.Error
				}
			}
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return fail(exitError, "%v", err)
				}
			} else {
				rep.WriteText(w)
			}
			switch {
			case !rep.OK:
				return exitCode(exitFailure)
			case onlineErr != nil:
				return fail(exitError, "%v", onlineErr)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&bundlePath, "bundle", "", "verify this exported bundle instead of the local register")
	f.BoolVar(&online, "online", false, "also ask the live Rekor log (entry and consistency proof)")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.StringVar(&rekorKeyPath, "rekor-key", "", "pin this Rekor public key (PEM) instead of the public-good key")
	f.StringVar(&operatorKeyPath, "operator-key", "", "pin this operator public key (PEM)")
	f.StringVar(&keyFlag, "key", "", "the signing key whose .pub to use (default: sentinel keygen's)")
	f.StringVar(&rekorURL, "rekor-url", "", "with --online: ask this log instead of the one each seal was made in")
	f.DurationVar(&timeout, "timeout", 5*time.Minute, "give up after this long")
	return cmd
}
