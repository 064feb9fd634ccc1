package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/census"
	"github.com/sentinel-guard/sentinel/internal/outfile"
	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// protocolArtifactKind names protocol files in sealed artifact statements.
const protocolArtifactKind = "protocol"

func newProtocolCmd() *cobra.Command {
	proto := &cobra.Command{
		Use:   "protocol",
		Short: "Pre-registered predictions: seal them before the reading, check them after",
		Long: `A protocol file (TOML, see docs/protocol.md) states in advance what the
operator expects the sentinel's numbers to be on a reading date, which
catalog it was written against, and which register entries every rule
change must keep denying (the must-keep list, also read by replay).

  sentinel protocol seal FILE    seal the file's sha256 in Rekor now
  sentinel protocol check FILE   read each prediction: held, missed or
                                 not_measurable (never counted as held)
  sentinel protocol keep SEQ...  print must-keep lines for denied entries`,
		Example: `  sentinel protocol seal testdata/protocol/week12.toml
  sentinel protocol check testdata/protocol/week12.toml --stops stops.json`,
	}

	var rekorURL, keyFlag, tsaURL string
	var sJSON bool
	sealCmd := &cobra.Command{
		Use:   "seal FILE",
		Short: "Seal a protocol file's hash in Rekor with the operator key",
		Long: `seal checks the protocol file, then signs a statement naming its sha256
("sentinel artifact v1 / kind protocol / sha256 ... / time ...") with the
operator key and uploads it to Rekor. Anyone holding the file can then check
that it existed, unchanged, before the reading date. The Rekor answer is
kept with the register's seals and exported in bundles; 'sentinel protocol
check' and 'sentinel verify' check it.

The statement is printed in full: publish it (or the bundle) with the file.
The log holds only its sha256, so the time line is needed to recompute it;
'rekor-cli search --sha sha256:<statement sha256>' then finds the entry.

Exit codes: 0 sealed, 3 usage or an invalid protocol file, 4 no key, no
register, or Rekor unreachable (the seal is kept as pending).`,
		Example: `  sentinel protocol seal protocol.toml
  sentinel protocol seal protocol.toml --rekor-url http://127.0.0.1:3000`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := protocol.Load(args[0]); err != nil {
				return fail(exitUsage, "%v", err)
			}
			sum, err := fileSHA256(args[0])
			if err != nil {
				return fail(exitError, "%v", err)
			}
			rekorURL, key, err := sealTarget(cmd, rekorURL, keyFlag)
			if err != nil {
				return err
			}
			r, err := protoOpenRegister(false)
			if err != nil {
				return err
			}
			defer r.Close()
			rec, err := seal.SealArtifact(context.Background(), r.DB(), seal.Options{RekorURL: rekorURL, Key: key},
				protocolArtifactKind, sum)
			if err != nil {
				return fail(exitError, "sealing %s: %v", args[0], err)
			}
			if tsaURL == "" {
				tsaURL = os.Getenv("SENTINEL_TSA_URL")
			}
			tsaFile := ""
			if tsaURL != "" {
				// The authority timestamps the signed statement itself,
				// so its time covers the seal, not only the file.
				tok, err := tsaTimestamp(context.Background(), tsaURL, []byte(rec.Checkpoint))
				if err != nil {
					return fail(exitError, "sealed %s, but the timestamp authority failed: %v (run protocol seal again)", args[0], err)
				}
				tsaFile = tsaTokenPath(args[0])
				if err := outfile.WriteFile(tsaFile, cmd.OutOrStdout(), tok, 0o644); err != nil {
					return fail(exitError, "%v", err)
				}
			}
			if sJSON {
				return protoJSON(cmd.OutOrStdout(), map[string]any{"file": args[0], "sha256": sum,
					"statement_sha256": statementSHA256(rec), "seal": rec, "timestamp_file": tsaFile})
			}
			printArtifactSeal(cmd.OutOrStdout(), args[0], sum, rec)
			if tsaFile != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "  RFC 3161 timestamp of the statement by %s: %s (publish it with the file)\n", tsaURL, tsaFile)
			}
			return nil
		},
	}
	sealCmd.Flags().StringVar(&rekorURL, "rekor-url", seal.DefaultRekorURL, "the Rekor v1 log (default from seal.toml, else the public-good log)")
	sealCmd.Flags().StringVar(&keyFlag, "key", "", "the signing key (default: the key made by sentinel keygen)")
	sealCmd.Flags().BoolVar(&sJSON, "json", false, "print the seal record as JSON")
	sealCmd.Flags().StringVar(&tsaURL, "tsa-url", "", "an RFC 3161 timestamp authority (not the operator's) to timestamp the seal's statement; the token is written to FILE.tsr (default $SENTINEL_TSA_URL)")
	proto.AddCommand(sealCmd)

	var at, stopsPath, tsaChain, tsaToken string
	var fl fleetFlags
	var pin pins
	var cJSON bool
	var witnessPaths []string
	check := &cobra.Command{
		Use:   "check FILE",
		Short: "Read each prediction as of its reading date: held, missed, not_measurable",
		Long: `check reads every prediction of a protocol file on the data as of its
reading date: register entries (decisions and grades) with a time up to the
end of that day (UTC) from the local register or an exported bundle
(--bundle: commitment-only entries suffice, so anyone can check), and the census (--stops stops.json) for the harness's
stops and the human cell. A prediction is held, missed (printed as a miss,
with the measured value) or not_measurable (with the reason). Not
measurable is never counted as held.

Over a fleet: --bundle B and --register DB, repeatable, read several
sources as census reads them: each verified first (one that does not
verify refuses the check, exit 1), pinned with B@SHA256:<hex> (or DB@...)
or --operator-key/--operator-fingerprint (a source pinned by neither is
read, reported and exits 6). Register-side predictions are read on the
fleet's totals; one that any source alone cannot measure is not_measurable,
never held. The file's seal may be in any source. No --stops or --witness:
they are one machine's (their predictions are not measurable).

A prediction whose reading date has not come is not measurable; --at DATE
reads everything as of DATE instead (an interim reading is marked so).

Pre-registration is checked, not assumed: check looks for the seal of this
file's exact bytes (in the register's seals, or the bundle's), verifies it
against the operator key and the pinned Rekor key (--rekor-key for a private
log), and compares the log's integrated time with each stated reading date.
A prediction is pre-registered only if the seal was integrated before its
reading day began (00:00 UTC). Once that day has begun, a prediction whose
file was sealed later, or never, or whose seal does not verify, is
NOT PRE-REGISTERED, whatever was measured: never held. (Before that day an
unsealed file can still be sealed in time; only an interim "held" is
withheld.) check also says whether the running catalog is the one the file
was written against.

Exit codes: 0 no prediction missed or not pre-registered, 1 at least one
missed or not pre-registered, 3 usage or an invalid file, 4 the register,
bundle or stops.json could not be read, 6 read, but a bundle or fleet
source was held only against its own operator key (not pinned).`,
		Example: `  sentinel protocol check protocol.toml --stops stops.json
  sentinel protocol check protocol.toml --at 2026-12-01 --json
  sentinel protocol check protocol.toml --bundle readings.json --operator-key operator.pub
  sentinel protocol check protocol.toml --at today --rekor-key log.pub \
    --bundle laptop.json@SHA256:3f2a... --bundle ci.json@SHA256:9bc0...`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := protocol.Load(args[0])
			if err != nil {
				return fail(exitUsage, "%v", err)
			}
			var atT time.Time
			if at == "today" {
				atT = time.Now().UTC()
			} else if at != "" {
				if atT, err = time.Parse(protocol.DateLayout, at); err != nil {
					return fail(exitUsage, "--at %q: want a date YYYY-MM-DD or today", at)
				}
			}
			o, _, err := pin.options()
			if err != nil {
				return err
			}
			sum, err := fileSHA256(args[0])
			if err != nil {
				return fail(exitError, "%v", err)
			}
			now := time.Now()
			out := checkOutput{File: args[0],
				CatalogVersion: f.CatalogVersion, RunningCatalogVersion: judge.CatalogVersion,
				CatalogHash: f.CatalogHash, RunningCatalogHash: judge.CatalogHash()}
			out.CatalogMatches = out.CatalogVersion == out.RunningCatalogVersion && out.CatalogHash == out.RunningCatalogHash
			var rep *protocol.CheckReport
			var unpinned error
			if fl.many() {
				// A fleet (protocol_fleet.go): every source verified as
				// census verifies it, the predictions read on the totals.
				if rep, unpinned, err = checkFleet(cmd, f, &out, &fl, &pin, o, sum, stopsPath, witnessPaths, atT, now, cJSON); err != nil {
					return err
				}
			} else {
				bundlePath, regPath := "", ""
				if len(fl.bundles) == 1 {
					bundlePath, o, err = pinSource(o, fl.bundles[0])
				} else if len(fl.registers) == 1 {
					regPath, o, err = pinSource(o, fl.registers[0])
				}
				if err != nil {
					return err
				}
				// Everything read goes through the verification verify does:
				// the register or bundle, its seals, its artifact seals.
				v, err := openVerified(context.Background(), cmd, bundlePath, regPath, bundlePath == "", o, &pin, "verifying", cJSON)
				if err != nil {
					return err
				}
				defer v.Close()
				var stops *protocol.Stops
				if stopsPath != "" {
					if stops, err = readSealedStops(stopsPath, v); err != nil {
						return err
					}
				}
				var pre protocol.Seal
				pre, out.Seal = protocolSeal(context.Background(), v.Artifacts, sum, v.Operator, o.Rekor)
				if tsaToken == "" {
					tsaToken = tsaTokenPath(args[0])
					if _, err := os.Stat(tsaToken); err != nil && tsaChain == "" {
						tsaToken = ""
					}
				}
				pre, out.Seal, out.Timestamp = protocolTimestamp(v.Artifacts, sum, pre, out.Seal, tsaToken, tsaChain)
				if rep, err = protocol.Check(f, v.Each, stops, atT, now); err != nil {
					return fail(exitError, "%v", err)
				}
				protocol.MarkUnsealed(rep, protocol.Unsealed{N: v.Unsealed, First: v.FirstUnsealed})
				protocol.Preregister(rep, pre, now)
				if out.Witness, err = protocolWitness(witnessPaths, v.EachAll, atT); err != nil {
					return err
				}
				out.Verified = v.Rep.Proved
				out.OperatorKey, out.OperatorKeyFrom, out.OperatorPinned = v.Rep.OperatorKey, v.Rep.OperatorKeyFrom, v.Rep.OperatorPinned
				out.NotPinned = v.Rep.NotPinnedLine()
				unpinned = notPinned(v.Rep)
			}
			out.CheckReport = rep
			w := cmd.OutOrStdout()
			if cJSON {
				if err := protoJSON(w, out); err != nil {
					return err
				}
			} else {
				printCheck(w, &out)
				printWitness(w, out.Witness)
			}
			if rep.Missed > 0 || rep.NotPreregistered > 0 || rep.NotSealed > 0 {
				return exitCode(exitFailure)
			}
			return unpinned
		},
	}
	pin.flags(check.Flags())
	check.Flags().StringVar(&at, "at", "", "read every prediction as of DATE (YYYY-MM-DD, or today) instead of its reading date")
	check.Flags().StringVar(&tsaChain, "tsa-chain", "", "the timestamp authority's certificate chain (PEM, root last), pinned: the protocol seal's time is then the authority's, not the log's")
	check.Flags().StringVar(&tsaToken, "timestamp", "", "the RFC 3161 timestamp of the protocol seal (default FILE.tsr)")
	check.Flags().StringVar(&stopsPath, "stops", "", "the census stops.json, for harness stops and the human cell")
	fl.add(check.Flags(), "read an exported bundle instead of the local register (anyone can check); PATH@SHA256:<hex> pins its operator key; repeatable: read over a fleet")
	check.Flags().StringArrayVar(&fl.registers, "register", nil, "read this register database instead of the operator's; PATH@SHA256:<hex> pins its operator key; repeatable: read over a fleet")
	check.Flags().BoolVar(&cJSON, "json", false, "print as JSON")
	check.Flags().StringArrayVar(&witnessPaths, "witness", nil, "the schedulers' run records, as census --witness reads them: where the unattended asks and denies fall")
	proto.AddCommand(check, newProtocolKeepCmd())
	return proto
}

func newProtocolKeepCmd() *cobra.Command {
	var note string
	var gradedTrue bool
	keep := &cobra.Command{
		Use:   "keep SEQ... | --graded-true",
		Short: "Print must-keep lines (SEQ COMMITMENT) for register entries",
		Long: `keep prints one must-keep line per entry, "SEQ COMMITMENT # note", taken from
the register, ready for a must-keep file (sentinel replay --must-keep); a
protocol file takes the same seq and commitment as [[must_keep]] tables.
Only denied decisions can be kept: the gate asks that they stay denied.
--graded-true takes every deny whose latest grade is true: the stops you
judged right are the ones a rule change must not lose.

Exit codes: 0 printed, 3 usage or an entry is not a deny, 4 the register
could not be read, 5 no register or no such entry.`,
		Example: `  sentinel protocol keep 412 415 > keep.txt
  sentinel protocol keep --graded-true > keep.txt
  sentinel replay --must-keep keep.txt`,
		Args: func(cmd *cobra.Command, args []string) error {
			if (len(args) == 0) != gradedTrue {
				return fail(exitUsage, "give the entries to keep (SEQ...) or --graded-true, one of the two")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := protoOpenRegister(true)
			if err != nil {
				return err
			}
			defer r.Close()
			w := cmd.OutOrStdout()
			if gradedTrue {
				if args, err = deniesGradedTrue(r); err != nil {
					return fail(exitError, "%v", err)
				}
				if len(args) == 0 {
					fmt.Fprintln(w, "# no deny is graded true yet: sentinel grades --ungraded")
				}
			}
			for _, a := range args {
				var seq int64
				if _, err := fmt.Sscan(a, &seq); err != nil || seq < 1 || fmt.Sprint(seq) != a {
					return fail(exitUsage, "%q is not a register sequence number", a)
				}
				e, err := r.Get(seq)
				if errors.Is(err, register.ErrNoEntry) {
					return failCode("no_entry", "entry %d does not exist", seq)
				} else if err != nil {
					return fail(exitError, "%v", err)
				}
				if !protocol.IsFlag(*e) || e.Decision != "deny" {
					return failCode("not_a_flag", "entry %d is not a deny (%s %s): only denies can be kept", seq, e.Kind, e.Decision)
				}
				n := note
				if n == "" {
					mode := "attended"
					if !e.Attended {
						mode = "unattended"
					}
					n = fmt.Sprintf("%s %s, %s", e.Tool, strings.Join(e.Rules, ","), mode)
				}
				fmt.Fprintf(w, "%d %s # %s\n", seq, e.Commitment, n)
			}
			return nil
		},
	}
	keep.Flags().StringVar(&note, "note", "", "note for every line (default: tool, rules and mode)")
	keep.Flags().BoolVar(&gradedTrue, "graded-true", false, "keep every deny whose latest grade is true")
	return keep
}

type checkOutput struct {
	File                  string `json:"file"`
	CatalogVersion        string `json:"catalog_version"`
	CatalogHash           string `json:"catalog_hash"`
	RunningCatalogVersion string `json:"running_catalog_version"`
	RunningCatalogHash    string `json:"running_catalog_hash"`
	CatalogMatches        bool   `json:"catalog_matches"`
	Seal                  string `json:"seal"`
	// Verified is what the verification of the register or bundle proved
	// (verify's "proves:" line): nothing else was read.
	Verified        string `json:"verified"`
	OperatorKey     string `json:"operator_key"`
	OperatorKeyFrom string `json:"operator_key_from"`
	OperatorPinned  bool   `json:"operator_pinned"`
	NotPinned       string `json:"not_pinned,omitempty"`
	// Fleet: the sources of a reading over several (protocol_fleet.go).
	Fleet *checkFleetOut `json:"fleet,omitempty"`
	*protocol.CheckReport
	Witness *census.WitnessCounts `json:"witness,omitempty"` // --witness (witness.go)
	// Timestamp: the RFC 3161 timestamp checked (tsa.go), "" when none.
	Timestamp string `json:"timestamp,omitempty"`
}

// protocolTimestamp checks the protocol seal's RFC 3161 timestamp when one
// is given: verified against the pinned chain, its time replaces the log's
// (which a private log's operator controls). A token that does not verify,
// or one without a pinned chain, leaves nothing pre-registered on its word.
func protocolTimestamp(recs []*seal.Record, sum string, pre protocol.Seal, status, token, chain string) (protocol.Seal, string, string) {
	if token == "" {
		return pre, status, ""
	}
	if pre.Missing != "" {
		return pre, status, "not checked: the protocol seal itself is missing or does not verify"
	}
	if chain == "" {
		return pre, status, fmt.Sprintf("%s not checked: no --tsa-chain pins the timestamp authority, so the time still rests on the log", token)
	}
	tok, err := safefile.ReadFile(token, maxTSAFile) // a FIFO or device is refused, not waited on
	if err != nil {
		return protocol.Seal{Missing: "timestamp unreadable"}, status, fmt.Sprintf("timestamp %v", err)
	}
	rec := seal.FindArtifact(recs, protocolArtifactKind, sum)
	t, who, err := verifyTSA(tok, []byte(rec.Checkpoint), chain)
	if err != nil {
		return protocol.Seal{Missing: "timestamp does not verify"}, status,
			fmt.Sprintf("timestamp %s does not verify against %s: %v: not pre-registered on its word", token, chain, err)
	}
	status = strings.TrimSuffix(status, "; the time rests on whoever runs that log (not the public-good log), possibly the operator: no independent timestamp was checked")
	note := fmt.Sprintf("RFC 3161 timestamp %s by %s at %s over the seal's statement (chain pinned by %s): pre-registration is read at this time, which rests on that authority, not on the operator", token, who, t.Format(time.RFC3339), chain)
	return protocol.Seal{Integrated: t}, status, note
}

func fileSHA256(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// protocolSeal finds the seal of this file's exact bytes among the artifact
// seals and verifies it (operator key, pinned log key); its integrated time
// decides pre-registration. The status line says what was found.
func protocolSeal(ctx context.Context, recs []*seal.Record, sum string, operator *ecdsa.PublicKey, rk *seal.RekorKey) (protocol.Seal, string) {
	rec := seal.FindArtifact(recs, protocolArtifactKind, sum)
	switch {
	case rec == nil:
		return protocol.Seal{Missing: "never sealed"}, fmt.Sprintf("not sealed (sha256 %s): run 'sentinel protocol seal' before the reading", sum)
	case rec.Status != seal.StatusSealed:
		return protocol.Seal{Missing: "sealing pending (Rekor not reached)"}, "sealing pending (Rekor not reached yet): run 'sentinel protocol seal' again"
	case operator == nil:
		return protocol.Seal{Missing: "seal not checked (no operator key)"}, "sealed, but not checked: no operator public key (--operator-key)"
	}
	if err := seal.VerifyArtifact(ctx, rec, protocolArtifactKind, sum, operator, rk); err != nil {
		return protocol.Seal{Missing: "seal does not verify"}, fmt.Sprintf("seal %d does not verify: %v", rec.ID, err)
	}
	t, _ := rec.IntegratedAt()
	status := fmt.Sprintf("sealed in Rekor entry %s, integrated %s (sha256 %s, operator key %s, log %s)",
		rec.RekorUUID, t.Format(time.RFC3339), sum, seal.Fingerprint(operator), rk.LogID)
	if !rk.PublicGood() {
		// No RFC 3161 timestamp from another authority is checked: on a log
		// the operator may run, the integrated time is that log's word.
		status += "; the time rests on whoever runs that log (not the public-good log), possibly the operator: no independent timestamp was checked"
	}
	return protocol.Seal{Integrated: t}, status
}

func statementSHA256(rec *seal.Record) string {
	s := sha256.Sum256([]byte(rec.Checkpoint))
	return hex.EncodeToString(s[:])
}

// printArtifactSeal prints an artifact seal with its whole statement: the
// log holds only the statement's sha256, so the statement (its time line)
// must be published for anyone to recompute it.
func printArtifactSeal(w io.Writer, file, sum string, rec *seal.Record) {
	fmt.Fprintf(w, "sealed %s\n  sha256 %s\n  statement (the signed text; publish it with the file):\n", file, sum)
	for _, line := range strings.Split(strings.TrimSuffix(rec.Checkpoint, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
	when := ""
	if t, ok := rec.IntegratedAt(); ok {
		when = ", integrated " + t.Format(time.RFC3339)
	}
	fmt.Fprintf(w, "  statement sha256 %s (rekor-cli search --sha sha256:%s)\n  rekor %s entry %s%s\n",
		statementSHA256(rec), statementSHA256(rec), rec.RekorURL, rec.RekorUUID, when)
}

func printCheck(w io.Writer, o *checkOutput) {
	if o.NotPinned != "" {
		fmt.Fprintln(w, o.NotPinned)
	}
	fmt.Fprintf(w, "protocol %s\n  seal: %s\n", o.File, o.Seal)
	if o.Timestamp != "" {
		fmt.Fprintf(w, "  timestamp: %s\n", o.Timestamp)
	}
	fmt.Fprintf(w, "  read: %s\n", o.Verified)
	printCheckFleet(w, o.Fleet)
	if !o.CatalogMatches {
		fmt.Fprintf(w, "  note: written against catalog %s (%s); this sentinel runs %s (%s)\n",
			o.CatalogVersion, o.CatalogHash, o.RunningCatalogVersion, o.RunningCatalogHash)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPREDICTION\tREADING\tAS OF\tSTATUS\tMEASURED")
	for _, r := range o.Results {
		status := r.Status
		if status == protocol.Missed {
			status = "MISSED"
		}
		asOf := r.AsOf
		if r.Interim {
			asOf += " (interim)"
		}
		switch status {
		case protocol.NotPreregistered:
			status = "NOT PRE-REGISTERED"
		case protocol.NotSealed:
			status = "NOT SEALED"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Statement, r.Reading, asOf, status, measured(r.Measured))
	}
	tw.Flush()
	for _, r := range o.Results {
		switch r.Status {
		case protocol.NotPreregistered:
			fmt.Fprintf(w, "  %s: %s\n", r.ID, r.PreregNote)
		case protocol.NotSealed:
			fmt.Fprintf(w, "  %s: %s\n", r.ID, r.Note)
		}
	}
	fmt.Fprintf(w, "held %d, missed %d, not measurable %d, not pre-registered %d, not sealed %d (none of the last three is ever counted as held)\n",
		o.Held, o.Missed, o.NotMeasurable, o.NotPreregistered, o.NotSealed)
}

// measured renders a measure: the value with its basis, or why there is none.
func measured(m protocol.Measure) string {
	switch {
	case m.Bool != nil:
		return fmt.Sprintf("%t (%s)", *m.Bool, m.Basis)
	case m.Value != nil:
		return fmt.Sprintf("%.4g (%s)", *m.Value, m.Basis)
	}
	return "null: " + m.Reason
}

// stopsJSON is the part of the census stops.json the predictions read.
type stopsJSON struct {
	SchemaVersion string `json:"schema_version"`
	ToolCalls     *struct {
		Count int64 `json:"count"`
	} `json:"tool_calls"`
	Stops *struct {
		Classifier      struct{ Total int64 } `json:"classifier"`
		PermissionRules struct{ Total int64 } `json:"permission_rules"`
		NoHumanMode     struct{ Total int64 } `json:"no_human_mode"`
		Human           *struct {
			Value  *int64 `json:"value"`
			Reason string `json:"reason"`
		} `json:"human"`
	} `json:"stops"`
	Rates map[string]struct {
		Value *float64 `json:"value"`
		Basis string   `json:"basis"`
	} `json:"rates"`
}

// harnessRateKey is the census rate of the harness's own stops.
const harnessRateKey = "harness_stops_per_100_tool_calls"

// readSealedStops reads a stops.json only if a verified census seal of the
// register or bundle names exactly its bytes' sha256: an edited or unsealed
// stops.json proves nothing, so it is not read.
func readSealedStops(path string, v *verified) (*protocol.Stops, error) {
	sum, err := fileSHA256(path)
	if err != nil {
		return nil, fail(exitError, "--stops: %v", err)
	}
	rec := seal.FindArtifact(v.Artifacts, censusArtifactKind, sum)
	if rec == nil {
		return nil, fail(exitFailure, "--stops %s: its sha256 %s is named by no verified census seal in %s: an edited or unsealed stops.json proves nothing, so it is not read (the operator seals it with 'sentinel census --seal')", path, sum, v.Label)
	}
	s, err := readStops(path)
	if err != nil {
		return nil, fail(exitError, "%v", err)
	}
	s.Source = fmt.Sprintf("%s (sha256 %s, census seal %s)", path, sum, rec.RekorUUID)
	return s, nil
}

// readStops reads what predictions need from a census stops.json.
func readStops(path string) (*protocol.Stops, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sj stopsJSON
	if err := json.Unmarshal(data, &sj); err != nil {
		return nil, fmt.Errorf("%s: not a census stops.json: %v", path, err)
	}
	if sj.SchemaVersion == "" || sj.Stops == nil {
		return nil, errors.New(path + ": not a census stops.json (no schema_version or stops)")
	}
	s := &protocol.Stops{Source: path}
	if rate, ok := sj.Rates[harnessRateKey]; ok {
		s.HarnessStopsPer100Calls = rate.Value
		s.HarnessReason = rate.Basis
	} else if sj.ToolCalls != nil && sj.ToolCalls.Count > 0 {
		// The harness's own stops: its classifier, the permission rules and
		// the modes where no human can answer; per 100 distinct tool calls
		// (an upper bound on calls, so the rate is a lower bound).
		n := sj.Stops.Classifier.Total + sj.Stops.PermissionRules.Total + sj.Stops.NoHumanMode.Total
		v := 100 * float64(n) / float64(sj.ToolCalls.Count)
		s.HarnessStopsPer100Calls = &v
	} else {
		s.HarnessReason = "stops.json counts no tool calls"
	}
	if h := sj.Stops.Human; h != nil {
		measuredCell := h.Value != nil
		s.HumanCellMeasured = &measuredCell
		s.HumanReason = h.Reason
	}
	return s, nil
}
