package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// verifyFindings lets other checks add non-fatal findings to a verify
// report (for example breach findings); each runs after the chain and seals.
var verifyFindings = []func(rep *seal.Report, reg *register.Register, b *bundle.Bundle){breachFindings, schemaFindings}

func newVerifyCmd() *cobra.Command {
	var bundlePath, rekorURL string
	var pin pins
	var art artifactCheck
	var online, asJSON, allowUnsealed bool
	var walkLimit int64
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

The operator key's fingerprint and the Rekor log id are always printed. Pin
the operator: --operator-fingerprint SHA256:... (the fingerprint the operator
published) or --operator-key FILE. A bundle checked only against the key it
carries exits 6 (not_pinned) and its first line says NOT PINNED: anyone can
make a key and seal an invented history in the public log. The local
register is checked against the public key beside the signing key unless
pinned (see docs/verify-a-register.md).

Offline by default, pinned to the public-good Rekor key built into sentinel.
For a private log pin its key: --rekor-key FILE, else $SIGSTORE_REKOR_PUBLIC_KEY
(the variable cosign reads), else rekor_public_key in seal.toml. --online asks the live log too,
always the log the pinned key belongs to (the public-good log for the built-in
key; --rekor-url is required for any other), never a URL the bundle names: the
log's current tree is proven consistent with the last one this machine verified
(kept per log in the state directory), each seal's entry and a consistency
proof to the current tree are checked, then every entry the operator key
signed: a log of at most --walk-limit entries is walked entry by entry, a
larger one is searched through its index (as rekor-cli search --public-key),
and the output says that this rests on the index, which the log does not sign.
One that the register or bundle does not account for fails: a later seal cut
from a bundle, a register rolled back or its seal rows deleted, history
rewritten and sealed again. --online needs the log's search index (the public
log has one); one operator key must seal one register.

Exit codes: 0 everything checked holds; 1 verification failed (the first
failure is named precisely, e.g. "entry 4711: hash does not match its
content", or entries are unsealed); 3 usage; 4 could not read the register,
bundle or keys, or reach or search the log with --online; 5 no register, or no
operator key for a sealed one; 6 a bundle that holds, but the operator key was
not pinned.`,
		Example: `  sentinel verify --allow-unsealed            # the live register: its tail is not sealed yet
  sentinel verify --bundle audit-2026-11.json --operator-fingerprint SHA256:5f1c...
  sentinel verify --bundle audit-2026-11.json --operator-key operator.pub
  sentinel verify --bundle audit.json --operator-key operator.pub --online --json
  sentinel verify --online --rekor-key private-log.pub --rekor-url https://rekor.example`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			// Reading a FIFO planted where a file should be would block
			// verify for good: every file it is named is looked at first.
			for _, in := range []struct{ flag, path string }{{"--bundle", bundlePath}, {"--operator-key", pin.operatorKey},
				{"--rekor-key", pin.rekorKey}, {"$" + envRekorKey, os.Getenv(envRekorKey)}, {"--artifact", art.file}} {
				if err := notSpecial(in.path); err != nil {
					return fail(exitError, "%s %v", in.flag, err)
				}
			}
			o, keyFrom, err := pin.options()
			if err != nil {
				return err
			}
			rk := o.Rekor
			if art.file != "" {
				if bundlePath != "" || online || allowUnsealed {
					return fail(exitUsage, "--artifact checks one file against the log: it takes no --bundle, --online or --allow-unsealed")
				}
				return art.run(ctx, cmd, o, rekorURL, asJSON)
			}
			o.AllowUnsealed = allowUnsealed
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
				recs = append(append(b.Records(), b.ArtifactRecords()...), b.RotationRecords()...)
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
				for _, subject := range []string{seal.SubjectRegister, seal.SubjectArtifact, seal.SubjectRotation} {
					rs, err := seal.Records(reg.DB(), subject)
					if err != nil {
						return fail(exitError, "cannot read the seals: %v", err)
					}
					recs = append(recs, rs...)
				}
				if err := pin.localOperator(&o, len(recs) > 0 || online); err != nil {
					return err
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
				url, err := seal.LogURL(rk, rekorURL)
				if err != nil {
					return fail(exitUsage, "--online: %v", err)
				}
				onlineErr = verifyOnline(ctx, rep, recs, rk, url, o, walkLimit)
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
			return notPinned(rep)
		},
	}
	f := cmd.Flags()
	f.StringVar(&bundlePath, "bundle", "", "verify this exported bundle instead of the local register")
	f.BoolVar(&online, "online", false, "also ask the live Rekor log: each seal's entry, a consistency proof, and every entry the operator key signed (search index)")
	f.BoolVar(&allowUnsealed, "allow-unsealed", false, "accept entries no verified seal covers (reported as unsealed, proving nothing) instead of failing")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	pin.flags(f)
	f.StringVar(&art.file, "artifact", "", "check that this file (a stops.json, a protocol file) is sealed: with --kind, --time and --rekor-uuid, as the census page prints them")
	f.StringVar(&art.kind, "kind", "census", "with --artifact: the statement's kind (census, protocol)")
	f.StringVar(&art.time, "time", "", "with --artifact: the statement's time line (RFC 3339)")
	f.StringVar(&art.uuid, "rekor-uuid", "", "with --artifact: the log entry of the seal")
	f.StringVar(&rekorURL, "rekor-url", "", "with --online or --artifact: the URL of the log the pinned Rekor key belongs to (default: the public-good log for the built-in key; required for any other)")
	f.DurationVar(&timeout, "timeout", 5*time.Minute, "give up after this long")
	f.Int64Var(&walkLimit, "walk-limit", 2000, "with --online: read every entry of a log this small, so the monitor does not rest on its search index")
	return cmd
}

// verifyOnline runs --online: the live entries of the seals, then the
// monitor over the operator key (the bundle's own key unless pinned).
func verifyOnline(ctx context.Context, rep *seal.Report, recs []*seal.Record, rk *seal.RekorKey, url string, o seal.VerifyOptions, walk int64) error {
	var pemBytes []byte
	if o.Operator != nil {
		pemBytes, _ = seal.PublicKeyPEM(o.Operator)
	}
	// The log asked is the one the pinned key belongs to, never a URL the
	// bundle or register names (it may be a relay that hides entries).
	state, err := paths.StateDir()
	if err != nil {
		return err
	}
	// Every key of the register's rotations is watched: an old key can
	// still sign a checkpoint of a history the register no longer holds.
	var more [][]byte
	for _, k := range rep.ChainKeys {
		if p, err := seal.PublicKeyPEM(k); err == nil {
			more = append(more, p)
		}
	}
	res, err := seal.VerifyOnlineWith(ctx, recs, rk, pemBytes, seal.OnlineOptions{URL: url, StateDir: state, WalkLimit: walk, Operators: more})
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

// artifactCheck is verify --artifact: one file's seal, checked in the log
// the pinned key belongs to, from what a census page prints.
type artifactCheck struct {
	file, kind, time, uuid string
}

func (a *artifactCheck) run(ctx context.Context, cmd *cobra.Command, o seal.VerifyOptions, url string, asJSON bool) error {
	if a.time == "" || a.uuid == "" {
		return fail(exitUsage, "--artifact needs --time (the statement's time line) and --rekor-uuid (the seal's log entry), as the census page prints them")
	}
	t, err := time.Parse(time.RFC3339, a.time)
	if err != nil {
		return fail(exitUsage, "--time %q: want RFC 3339, as the statement's time line", a.time)
	}
	sum, err := fileSHA256(a.file)
	if err != nil {
		return fail(exitError, "%v", err)
	}
	statement, err := seal.ArtifactStatement(a.kind, sum, t)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	if url, err = seal.LogURL(o.Rekor, url); err != nil {
		return fail(exitUsage, "%v", err)
	}
	fp := o.Fingerprint
	rec, signer, err := seal.FetchArtifactSeal(ctx, url, a.uuid, statement, o.Operator, fp, o.Rekor)
	var ue *seal.UnreachableError
	switch {
	case errors.As(err, &ue):
		return fail(exitError, "%v", err)
	case err != nil:
		return fail(exitFailure, "%s (sha256 %s) is not sealed by that entry: %v", a.file, sum, err)
	}
	pinned := o.Operator != nil || fp != ""
	out := map[string]any{"file": a.file, "sha256": sum, "statement": string(statement), "rekor_url": url,
		"rekor_uuid": rec.RekorUUID, "operator_key": seal.Fingerprint(signer), "operator_pinned": pinned, "rekor_log_id": o.Rekor.LogID, "ok": true}
	if t, ok := rec.IntegratedAt(); ok {
		out["integrated_time"] = t.Format(time.RFC3339)
	}
	if e, err := rec.Entry(); err == nil {
		out["log_index"] = *e.LogIndex
	}
	w := cmd.OutOrStdout()
	notPinnedLine := fmt.Sprintf("NOT PINNED: the operator key was not pinned (the entry's signer is %s): pass --operator-fingerprint with the fingerprint the operator published", seal.Fingerprint(signer))
	if asJSON {
		if err := protoJSON(w, out); err != nil {
			return err
		}
	} else {
		if !pinned {
			fmt.Fprintln(w, notPinnedLine)
		}
		fmt.Fprintf(w, "artifact %s: sha256 %s\nstatement:\n  %s\n", a.file, sum, strings.ReplaceAll(strings.TrimSuffix(string(statement), "\n"), "\n", "\n  "))
		fmt.Fprintf(w, "sealed: Rekor log index %v, entry %s at %s, integrated %v\noperator key: %s\nrekor log id: %s\n", out["log_index"], rec.RekorUUID, url, out["integrated_time"], seal.Fingerprint(signer), o.Rekor.LogID)
		fmt.Fprintf(w, "proves: this exact file was signed by the operator key %s and in the log %s by %v; not that its numbers are true\n", seal.Fingerprint(signer), o.Rekor.LogID, out["integrated_time"])
		fmt.Fprintln(w, "OK")
	}
	if !pinned {
		return failCode("not_pinned", "%s", notPinnedLine)
	}
	return nil
}

// notSpecial refuses a path (followed, as the operator named it) that
// exists and is not a regular file: a FIFO, a device, a directory, a
// socket. A missing file is left to the reader to report.
func notSpecial(path string) error {
	if path == "" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if why := safefile.NotRegular(fi.Mode()); why != "" {
		return fmt.Errorf("%s %s: refused (it would not be read)", path, why)
	}
	return nil
}
