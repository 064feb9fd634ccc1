package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
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
	var online, asJSON, allowUnsealed bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Verify the register's chain and its seals (offline by default)",
		Long: `verify checks the register, or an exported bundle with --bundle, and says
what that proves:

  1. the hash chain: every entry's hash matches its content and links to the
     previous entry (for disclosed entries the input matches its commitment;
     withheld entries are checked by position and link);
  2. every seal: the operator's signature on the checkpoint; Rekor's stored
     answer through Rekor's own verify code (signed entry timestamp, inclusion
     proof, checkpoint signature) against the pinned Rekor key; that the Rekor
     entry is a hashedrekord of exactly this checkpoint, signed by exactly the
     operator key, in the log whose id is the pinned key's; that the chain head
     and the Merkle root recomputed from the entries are the sealed ones; that
     each seal names its predecessor;
  3. every artifact seal (protocol files, census) the same way;
  4. entries no verified seal covers FAIL the verification: a hash chain alone
     is trivial to fabricate. --allow-unsealed accepts them (reported as
     unsealed, proving nothing; the verdict names the flag).

The operator key's fingerprint and the Rekor log id are always printed. The
operator key is the public key beside the signing key (sentinel keygen); for a
bundle, the key inside it: compare its fingerprint with the one the operator
published, or better pin it with --operator-key (the documented way; see
docs/verify-a-register.md).

Offline by default, pinned to the public-good Rekor key built into sentinel.
For a private log pin its key: --rekor-key FILE, else $SIGSTORE_REKOR_PUBLIC_KEY
(the variable cosign reads), else rekor_public_key in seal.toml. --online asks the live log too: each seal's
entry and a consistency proof to the current tree, then the log's search index
for every entry the operator key signed (as rekor-cli search --public-key).
One that the register or bundle does not account for fails: a later seal cut
from a bundle, a register rolled back or its seal rows deleted, history
rewritten and sealed again. --online needs the log's search index (the public
log has one); one operator key must seal one register.

Exit codes: 0 everything checked holds; 1 verification failed (the first
failure is named precisely, e.g. "entry 4711: hash does not match its
content", or entries are unsealed); 3 usage; 4 could not read the register,
bundle or keys, or reach or search the log with --online; 5 no register, or no
operator key for a sealed one.`,
		Example: `  sentinel verify --allow-unsealed            # the live register: its tail is not sealed yet
  sentinel verify --bundle audit-2026-11.json --operator-key operator.pub
  sentinel verify --bundle audit.json --operator-key operator.pub --online --json
  sentinel verify --online --rekor-key private-log.pub --rekor-url https://rekor.example`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			rk, keyFrom, err := rekorKey(rekorKeyPath)
			if err != nil {
				return err
			}
			o := seal.VerifyOptions{Rekor: rk, AllowUnsealed: allowUnsealed}
			if operatorKeyPath != "" {
				if o.Operator, err = seal.LoadPublicKey(operatorKeyPath); err != nil {
					return fail(exitError, "operator key: %v", err)
				}
				o.OperatorFrom = "pinned with --operator-key"
			}
			var rep *seal.Report
			var recs []*seal.Record // every seal, of every subject: what the log may hold
			if bundlePath != "" {
				b, err := bundle.Read(bundlePath)
				if err != nil {
					return fail(exitError, "cannot read bundle %s: %v", bundlePath, err)
				}
				stop := bundleProgress(cmd, b, "verifying the bundle", asJSON)
				rep = b.Verify(ctx, bundlePath, o)
				stop()
				recs = append(b.Records(), b.ArtifactRecords()...)
				if o.Operator == nil {
					// The monitor searches for the key the bundle names.
					o.Operator, _ = seal.ParsePublicKey([]byte(b.OperatorKey))
				}
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
				for _, subject := range []string{seal.SubjectRegister, seal.SubjectArtifact} {
					rs, err := seal.Records(reg.DB(), subject)
					if err != nil {
						return fail(exitError, "cannot read the seals: %v", err)
					}
					recs = append(recs, rs...)
				}
				if o.Operator == nil {
					keyPath, err := sealKeyPath(keyFlag)
					if err != nil {
						return fail(exitError, "%v", err)
					}
					pub := seal.PublicKeyPath(keyPath)
					o.Operator, err = seal.LoadPublicKey(pub)
					switch {
					case errors.Is(err, fs.ErrNotExist) && (len(recs) > 0 || online):
						return failCode("no_key", "the register has seals (or --online needs the operator key) but there is no operator public key at %s: pass --operator-key", pub)
					case errors.Is(err, fs.ErrNotExist):
					case err != nil:
						return fail(exitError, "operator key: %v", err)
					default:
						o.OperatorFrom = "local: " + pub
					}
				}
				stop := registerProgress(cmd, reg, "verifying", asJSON, false)
				rep, err = seal.VerifyRegister(ctx, reg, o)
				stop()
				if err != nil {
					return fail(exitError, "%v", err)
				}
				for _, f := range verifyFindings {
					f(rep, reg, nil)
				}
			}
			var onlineErr error
			if online {
				onlineErr = verifyOnline(ctx, rep, recs, rk, rekorURL, o)
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
			case !rep.OK && strings.Contains(rep.Failure, "pinned Rekor key"):
				fmt.Fprintln(cmd.ErrOrStderr(), "sentinel: "+rekorKeyHint(keyFrom))
				return exitCode(exitFailure)
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
	f.BoolVar(&online, "online", false, "also ask the live Rekor log: each seal's entry, a consistency proof, and every entry the operator key signed (search index)")
	f.BoolVar(&allowUnsealed, "allow-unsealed", false, "accept entries no verified seal covers (reported as unsealed, proving nothing) instead of failing")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.StringVar(&rekorKeyPath, "rekor-key", "", "pin this Rekor public key (PEM) instead of the public-good key (env SIGSTORE_REKOR_PUBLIC_KEY)")
	f.StringVar(&operatorKeyPath, "operator-key", "", "pin this operator public key (PEM)")
	f.StringVar(&keyFlag, "key", "", "the signing key whose .pub to use (default: sentinel keygen's)")
	f.StringVar(&rekorURL, "rekor-url", "", "with --online: ask this log instead of the one each seal was made in")
	f.DurationVar(&timeout, "timeout", 5*time.Minute, "give up after this long")
	return cmd
}

// verifyOnline runs --online: the live entries of the seals, then the
// monitor over the operator key (the bundle's own key unless pinned).
func verifyOnline(ctx context.Context, rep *seal.Report, recs []*seal.Record, rk *seal.RekorKey, url string, o seal.VerifyOptions) error {
	var pemBytes []byte
	if o.Operator != nil {
		pemBytes, _ = seal.PublicKeyPEM(o.Operator)
	}
	res, err := seal.VerifyOnline(ctx, recs, rk, url, pemBytes)
	if res == nil {
		res = &seal.OnlineResult{URL: url}
	}
	rep.Online = res
	switch {
	case err != nil:
		res.Error = err.Error()
	case res.Error != "" && rep.OK:
		rep.OK, rep.Failure = false, "online: "+res.Error
	case pemBytes == nil && rep.OK:
		rep.OK, rep.Failure = false, "online: no operator key to search the log for"
	}
	rep.Settle()
	return err
}
