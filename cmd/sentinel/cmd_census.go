package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/census"
	"github.com/sentinel-guard/sentinel/internal/outfile"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
	"github.com/sentinel-guard/sentinel/transcript"
)

// censusArtifactKind names stops.json files in sealed artifact statements.
const censusArtifactKind = "census"

func newCensusCmd() *cobra.Command {
	var (
		transcripts        []string
		since, until       string
		out, page, ci      string
		regAts             []string
		fl                 fleetFlags
		noRegister, doSeal bool
		asJSON, showSchema bool
		rekorURL, keyFlag  string
		title              string
		witness            []string
		pin                pins
	)
	cmd := &cobra.Command{
		Use:   "census",
		Short: "Count who stopped the agent: write the count-only stops.json (and its page)",
		Long: `census reads Claude Code's transcripts (main sessions and subagents) and the
operator's register, and writes stops.json: how many tool calls there were
(an upper bound) and how many were stopped, by who stopped them: the
harness's auto-mode classifier, the operator's permission rules, modes in
which no human could answer, this sentinel (by its fixed reason marker,
cross-checked against the register by tool_use_id), other hooks, and the
user at the permission prompt. CI gates are counted apart from a --ci file;
the human's oversight in conversation leaves no record and is null, never 0.

Count-only: no command, path or message is ever written. A call stopped by
a permission rule is analysed in memory and only its class (inline_code,
git_history, package_install, network, file_write, file_read, other) is
kept. The output is checked against its JSON Schema before it is written.

Window: --since (inclusive) and --until (exclusive) take a date
(2026-11-01, midnight UTC) or an RFC 3339 time, and apply to each record's
own timestamp.

--ci FILE is JSON Lines, one gate run per line:
  {"time":"2026-11-05T10:00:00Z","gate":"lint","result":"fail"}
(result pass or fail), or GitHub's record as gh prints it:
  gh run list --json conclusion,createdAt,workflowName,event > ci.json
(or gh run view --json objects); success passes, failure, timed_out and
startup_failure fail, runs in progress or without a verdict are counted
apart. Gate and workflow names are read but never written.

--witness FILE|DIR (repeatable) reads the schedulers' own record of when
routines ran: systemd's journal (journalctl [--user] -u UNIT -o json),
syslog with cron's CMD/END lines, GitHub Actions (gh run list --json
createdAt,startedAt,updatedAt,status,conclusion), or JSON Lines
{"start":RFC3339,"end":RFC3339,"session_id":ID}. Each unattended ask and
deny is placed inside a recorded run, outside any (listed by register seq),
or unchecked; only the kinds and counts are written. It proves a run was
live, not that its work was what the register says (docs/census.md).

--bundle B (repeatable, from sentinel export --fields all) and --register DB
given more than once make one census over a fleet: every source is verified
first, as sentinel verify does, and one that does not verify refuses the
census. Pin a source's operator key with B@SHA256:<hex> (or DB@...), the rest
with --operator-key/--operator-fingerprint; a source pinned by neither is
held against its own key, reported, and the census exits 6 (not_pinned).
stops.json gets a row per source (an opaque id and its key's fingerprint,
never a host) and the totals. Transcripts and witnesses stay on each machine.

--seal signs a statement naming the sha256 of the stops.json just written
(kind census) with the operator key and uploads it to Rekor (--rekor-url,
else seal.toml, else the public-good log); the record is kept beside the
register's seals, so a published stops.json can be checked.

Nothing read is null, never 0: without transcripts (the default directory
missing) every transcript cell is null with its reason and the register is
still counted; with neither transcripts nor a register (--no-register) there
is nothing to count and the census exits 4. A stop is this sentinel's only
when the register holds its ask or deny for that call (the marker alone can
be printed by any hook: such stops are counted apart, as unconfirmed_marker).

--schema prints the JSON Schema of stops.json (draft 2020-12); stops.json
names it in "$schema". --title sets the title of the file and the page.

Exit codes: 0 written, 1 a --bundle or --register source does not verify
(nothing is written), 3 usage, 4 nothing to count, or could not read the
transcripts, the register or the CI file, write the output, or seal it; 5 no
register (pass --no-register to count the transcripts alone) or no signing
key for --seal; 6 written, but a fleet source's operator key was not pinned.`,
		Example: `  sentinel census
  sentinel census --since 2026-11-01 --until 2026-12-01 --out stops.json --html stops.html
  sentinel census --transcripts ~/.claude/projects --transcripts /mnt/old/projects --ci ci.jsonl
  sentinel census --out - --no-register | jq .stops
  sentinel census --seal
  sentinel census --seal --rekor-url http://127.0.0.1:3000
  sentinel census --title "Team agents, November" --since 2026-11-01 --until 2026-12-01 --html stops.html
  journalctl --user -u routine.service -o json > journal.json
  sentinel census --witness journal.json --witness /var/log/syslog --witness runs.json
  sentinel census --bundle laptop.json@SHA256:3f2a... --bundle ci.json@SHA256:9bc0... --rekor-key log.pub
  sentinel census --schema > stops.schema.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if showSchema {
				_, err := cmd.OutOrStdout().Write(census.SchemaJSON)
				return err
			}
			o := census.Options{Generator: "sentinel " + version.Version, RuleClass: judge.ClassOf, CI: ci}
			var err error
			if o.Since, err = parseCensusTime("--since", since); err != nil {
				return err
			}
			if o.Until, err = parseCensusTime("--until", until); err != nil {
				return err
			}
			if !o.Since.IsZero() && !o.Until.IsZero() && !o.Until.After(o.Since) {
				return fail(exitUsage, "--until must be after --since")
			}
			if doSeal && out == "-" {
				return fail(exitUsage, "--seal needs a file: --out - cannot be sealed")
			}
			o.Title = title
			o.Witness = witness
			fl.registers = regAts
			o.TranscriptDirs = transcripts
			if len(o.TranscriptDirs) == 0 && !fl.on() {
				def := transcript.DefaultDir(paths.Home())
				if _, err := os.Stat(def); err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: no transcripts at %s: their cells are null\n", def)
					o.NoTranscripts = "The default transcript directory ($CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects) does not exist on this machine: no tool call or stop was read, so these cells are null, not 0."
				} else {
					o.TranscriptDirs = []string{def}
				}
			}
			regPath := ""
			if fl.on() { // a fleet: every --register is a source (census_fleet.go)
				if doSeal {
					return fail(exitUsage, "--seal keeps the seal beside one register: it cannot seal a census over several sources")
				}
			} else if len(regAts) == 1 {
				regPath = regAts[0]
			}
			if regPath == "" && !noRegister && !fl.on() {
				if regPath, err = paths.RegisterPath(); err != nil {
					return fail(exitError, "%v", err)
				}
			}
			var checked *verified
			if regPath != "" {
				if _, err := os.Stat(regPath); errors.Is(err, os.ErrNotExist) {
					return failCode("no_register", "no register at %s yet: no tool call has been recorded (count the transcripts alone with --no-register)", regPath)
				}
				// The register is read only once the verification verify
				// does holds (an unsealed tail is read and said to be
				// unsealed on the page; a broken chain or seal stops here).
				pin.key = keyFlag
				vo, _, err := pin.options()
				if err != nil {
					return err
				}
				if checked, err = openVerified(context.Background(), cmd, "", regPath, true, vo, &pin, "verifying the register", asJSON); err != nil {
					return err
				}
				defer checked.Close()
				reg := checked.Register
				o.Register, o.Open = outcome.Entries(reg), reg
				defer registerProgress(cmd, reg, "reading the register", asJSON, false)()
				o.Verify = censusVerify(reg)
			}
			if o.Verify.How == "" {
				o.Verify.How = censusVerifyHow
			}

			pin.key = keyFlag
			rep, unpinned, err := runCensus(cmd, o, &fl, &pin, asJSON)
			var ee *exitErr
			if errors.As(err, &ee) {
				return err
			}
			if errors.Is(err, census.ErrNothingRead) {
				return fail(exitError, "%v (name a directory with --transcripts, or a register with --register)", err)
			}
			if err != nil {
				return fail(exitError, "%v", err)
			}
			var js bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil {
				return fail(exitError, "%v", err)
			}
			if err := census.Validate(js.Bytes()); err != nil {
				return fail(exitError, "refusing to write: %v", err)
			}
			if out == "-" {
				_, err = cmd.OutOrStdout().Write(js.Bytes())
			} else {
				err = outfile.WriteFile(out, cmd.OutOrStdout(), js.Bytes(), 0o644)
			}
			if err != nil {
				return fail(exitError, "writing %s: %v", out, err)
			}
			sum := sha256.Sum256(js.Bytes())
			hexSum := hex.EncodeToString(sum[:])
			// The seal comes before the page, which prints its log index.
			var rec *seal.Record
			w := cmd.OutOrStdout()
			if asJSON && out != "-" {
				if _, err := w.Write(js.Bytes()); err != nil {
					return err
				}
				w = cmd.ErrOrStderr()
			}
			var sealErr error
			if doSeal {
				// A seal that fails still leaves the file and its page
				// (saying it is not sealed); the exit says it failed.
				rec, sealErr = sealCensus(cmd, w, regPath, out, hexSum, rekorURL, keyFlag)
			}
			if page != "" {
				rep.Check = pageCheck(out, hexSum, rec, checked, seal.DefaultRekorURL)
				if err := sigstoreBeside(cmd, out, rec, pin.rekorKey, rep.Check); err != nil {
					return err
				}
				fleetCheck(rep.Check, rep.Fleet)
				var h bytes.Buffer
				if err := rep.WriteHTML(&h); err != nil {
					return fail(exitError, "%v", err)
				}
				if err := outfile.WriteFile(page, cmd.OutOrStdout(), h.Bytes(), 0o644); err != nil {
					return fail(exitError, "writing %s: %v", page, err)
				}
			}
			if out == "-" {
				return unpinned
			}
			if !asJSON {
				printCensus(w, rep, out, page, hexSum)
			}
			if sealErr == nil {
				sealErr = unpinned // a fleet source held only against its own key (census_fleet.go)
			}
			return sealErr
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&transcripts, "transcripts", nil, "transcript directory, searched recursively; repeatable (default $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)")
	f.StringVar(&since, "since", "", "count records at or after this date or RFC 3339 time")
	f.StringVar(&until, "until", "", "count records before this date or RFC 3339 time")
	f.StringVarP(&out, "out", "o", "stops.json", "where to write stops.json ('-': stdout)")
	f.StringVar(&page, "html", "", "also write the self-contained HTML page here")
	f.StringVar(&ci, "ci", "", "CI gate runs: our JSON Lines or gh run list/view --json output (see above); without it CI is null")
	f.StringArrayVar(&witness, "witness", nil, "the schedulers' run records, a file or directory: journalctl -o json, syslog with cron lines, gh run list/view --json, or JSON Lines {start,end,session_id}; repeatable")
	f.StringArrayVar(&regAts, "register", nil, "register database (default the operator's); repeated: one census over a fleet, each verified")
	fl.add(f, censusBundleUsage)
	f.BoolVar(&noRegister, "no-register", false, "do not read a register (its cells are null)")
	f.BoolVar(&doSeal, "seal", false, "seal the sha256 of the written stops.json in Rekor with the operator key")
	f.StringVar(&rekorURL, "rekor-url", seal.DefaultRekorURL, "the Rekor v1 log for --seal (default from seal.toml, else the public-good log)")
	f.StringVar(&keyFlag, "key", "", "the signing key for --seal (default: the key made by sentinel keygen)")
	f.BoolVar(&asJSON, "json", false, "print stops.json to stdout as well")
	f.BoolVar(&showSchema, "schema", false, "print the JSON Schema (draft 2020-12) of stops.json and exit")
	f.StringVar(&title, "title", "", "the title of stops.json and its page (default \""+census.DefaultTitle+"\")")
	pin.flags(f)
	cmd.MarkFlagsMutuallyExclusive("register", "no-register")
	return cmd
}

const censusVerifyHow = "Check the register with 'sentinel verify' (or a bundle with 'sentinel verify --bundle'), whose seals name this key; a stops.json written with 'census --seal' is named by its sha256 in an artifact statement signed with the same key (see docs/census.md, Sealing)."

// censusVerify names the register's latest seal and the key that signed
// it, for the page's "how to verify". Errors leave the cells null.
func censusVerify(reg *register.Register) census.Verify {
	v := census.Verify{How: censusVerifyHow}
	recs, err := seal.Records(reg.DB(), seal.SubjectRegister)
	if err != nil {
		return v
	}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Status != "sealed" || r.RekorUUID == "" {
			continue
		}
		v.RegisterSeal = &census.SealRef{UUID: r.RekorUUID, RekorURL: r.RekorURL, Seq: int64(r.Size),
			SealedAt: r.SealedAt.UTC().Format(time.RFC3339)}
		if pub, err := seal.ParsePublicKey([]byte(r.PublicKey)); err == nil {
			fp := seal.Fingerprint(pub)
			v.KeyFingerprint = &fp
		}
		break
	}
	return v
}

// parseCensusTime reads a date (midnight UTC) or an RFC 3339 time.
func parseCensusTime(flag, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, fail(exitUsage, "%s %q: want a date (2026-11-01) or an RFC 3339 time (2026-11-01T08:00:00Z)", flag, s)
}

func printCensus(w io.Writer, r *census.Report, out, page, sum string) {
	cell := func(v *int64) string {
		if v == nil {
			return "—"
		}
		return fmt.Sprint(*v)
	}
	rate := func(k string) string {
		if v := r.Rates[k].Value; v != nil {
			return fmt.Sprintf("%.2f", *v)
		}
		return "—"
	}
	st := r.Stops
	fmt.Fprintf(w, "census of %d transcript files (%d unreadable lines skipped), register %s\n",
		r.Sources.TranscriptFiles, r.Sources.UnreadableLines, r.Sources.Register)
	fmt.Fprintf(w, "tool calls %s (upper bound), stops %s: %s per 100 calls (lower bound)\n\n",
		cell(r.ToolCalls.Count), cell(st.Total), rate("stops_per_100_tool_calls"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STOPPER\tSTOPS\tPER 100 CALLS")
	for _, x := range []struct {
		name string
		n    *int64
		rate string
	}{
		{"classifier", st.Classifier.Total, "classifier"},
		{"permission rules", st.PermissionRules.Total, "permission_rules"},
		{"no-human mode", st.NoHumanMode.Total, "no_human_mode"},
		{"sentinel (register-confirmed)", st.Sentinel.Total, "sentinel"},
		{"marker, not in the register", st.UnconfirmedMarker.Total, "unconfirmed_marker"},
		{"other hooks", st.OtherHooks.Total, "other_hooks"},
		{"user (prompt)", st.User.Total, "user"},
	} {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", x.name, cell(x.n), rate(x.rate+"_per_100_tool_calls"))
	}
	var ciCell *int64
	if st.CI != nil {
		ciCell = &st.CI.Failed
	}
	fmt.Fprintf(tw, "CI gates, failed (apart)\t%s\t—\n", cell(ciCell))
	fmt.Fprintf(tw, "human in conversation\t%s\t—\n", cell(st.Human.Value))
	tw.Flush()
	var nm []string
	for _, n := range r.NotMeasured {
		nm = append(nm, n.Key)
	}
	if d := st.Disagreement; d != nil {
		fmt.Fprintf(w, "\ntranscript and register disagree on %s sentinel stops: %s in the transcript only, %s in the register only (%s register stops whose call is in no transcript read)\n",
			cell(d.Total), cell(d.TranscriptOnly), cell(d.RegisterOnly), cell(d.RegisterUnseen))
	}
	printWitness(w, r.Witness)
	printFleet(w, r.Fleet)
	fmt.Fprintf(w, "\nnot measured: %s\nwrote %s (sha256 %s)\n", strings.Join(nm, ", "), out, sum)
	if page != "" {
		fmt.Fprintf(w, "wrote %s\n", page)
	}
}

// sealCensus seals the written file's sha256 with the operator key and
// keeps the record beside the register's seals.
func sealCensus(cmd *cobra.Command, w io.Writer, regPath, out, sum, rekorURL, keyFlag string) (*seal.Record, error) {
	if regPath == "" {
		return nil, fail(exitUsage, "--seal keeps the seal beside the register: it cannot be used with --no-register")
	}
	rekorURL, key, err := sealTarget(cmd, rekorURL, keyFlag)
	if err != nil {
		return nil, err
	}
	reg, err := register.Open(regPath)
	if err != nil {
		return nil, fail(exitError, "%v", err)
	}
	defer reg.Close()
	rec, err := seal.SealArtifact(context.Background(), reg.DB(), seal.Options{RekorURL: rekorURL, Key: key}, censusArtifactKind, sum)
	if err != nil {
		return nil, fail(exitError, "sealing %s: %v (the seal is kept as pending)", out, err)
	}
	printArtifactSeal(w, out, sum, rec) // cmd_protocol.go
	return rec, nil
}

// pageCheck is the page's verification block: the sha256 of the stops.json
// it shows, the census seal of exactly those bytes (nil when not sealed),
// what verifying the register proved, and the commands a stranger runs with
// the page, the stops.json published with it and the operator's published
// fingerprint.
func pageCheck(out, sum string, rec *seal.Record, checked *verified, publicGood string) *census.PageCheck {
	pc := &census.PageCheck{StopsFile: filepath.Base(out), StopsSHA256: sum, Register: "no register was read"}
	if checked != nil {
		r := checked.Rep
		switch {
		case r.Sealed == 0:
			pc.Register = fmt.Sprintf("%d entries, chain intact, none sealed: the register's counts rest on the operator alone", r.Entries)
		case r.Unsealed > 0:
			pc.Register = fmt.Sprintf("entries 1..%d sealed and verified (operator key %s, log %s); the %d entries after the last seal were read but are not sealed", r.Sealed, r.OperatorKey, r.RekorLogID, r.Unsealed)
		default:
			pc.Register = fmt.Sprintf("all %d entries sealed and verified (operator key %s, log %s)", r.Sealed, r.OperatorKey, r.RekorLogID)
		}
	}
	pc.Commands = []string{"sha256sum " + pc.StopsFile + "   # must print " + sum}
	if rec == nil || rec.Status != seal.StatusSealed {
		return pc
	}
	ref := &census.ArtifactSealRef{UUID: rec.RekorUUID, RekorURL: rec.RekorURL, Statement: rec.Checkpoint}
	if e, err := rec.Entry(); err == nil {
		ref.LogIndex = *e.LogIndex
	}
	if t, ok := rec.IntegratedAt(); ok {
		ref.Integrated = t.Format(time.RFC3339)
	}
	pc.CensusSeal = ref
	st, err := seal.ParseArtifactStatement(rec.Checkpoint)
	if err != nil {
		return pc
	}
	fp := "SHA256:<the fingerprint the operator published>"
	if pub, err := seal.ParsePublicKey([]byte(rec.PublicKey)); err == nil {
		fp = seal.Fingerprint(pub)
	}
	log := ""
	if rec.RekorURL != publicGood {
		log = " --rekor-url " + rec.RekorURL + " --rekor-key rekor.pub"
	}
	pc.Commands = append(pc.Commands,
		fmt.Sprintf("sentinel verify --artifact %s --kind %s --time %s --rekor-uuid %s --operator-fingerprint %s%s",
			pc.StopsFile, st.Kind, st.Time.UTC().Format(time.RFC3339), rec.RekorUUID, fp, log),
		"# the fingerprint must be the one the operator published elsewhere: a page cannot vouch for itself")
	if log != "" {
		pc.Commands = append(pc.Commands, "# rekor.pub: the public key of the log at "+rec.RekorURL+", as its operator publishes it (a private log: the time rests on whoever runs it)")
	}
	return pc
}

// sigstoreBeside writes the census seal beside the stops.json as a
// Sigstore bundle v0.3 (OUT.sigstore.json), its signed statement
// (OUT.statement.txt), the operator key (OUT.operator.pub) and, for a
// private log, its trusted root (OUT.trusted_root.json), and puts the
// cosign command that checks them on the page: the seal, with no sentinel
// binary. Nothing is written for an unsealed census or --out -.
func sigstoreBeside(cmd *cobra.Command, out string, rec *seal.Record, rekorKeyPath string, pc *census.PageCheck) error {
	if out == "-" || rec == nil || rec.Status != seal.StatusSealed {
		return nil
	}
	b, err := bundle.SigstoreBundle(rec)
	if err != nil {
		return fail(exitError, "the census seal as a Sigstore bundle: %v", err)
	}
	files := map[string][]byte{".sigstore.json": b, ".statement.txt": []byte(rec.Checkpoint), ".operator.pub": []byte(rec.PublicKey)}
	rk, _, err := rekorKey(rekorKeyPath)
	if err != nil {
		return err
	}
	root := ""
	if !rk.PublicGood() {
		since, _ := rec.IntegratedAt()
		tr, err := bundle.TrustedRoot(rk, rec.RekorURL, since.Add(-time.Hour))
		if err != nil {
			return fail(exitError, "%v", err)
		}
		files[".trusted_root.json"] = tr
		root = " --trusted-root " + filepath.Base(out) + ".trusted_root.json"
	}
	for suffix, data := range files {
		if err := outfile.WriteFile(out+suffix, cmd.OutOrStdout(), data, 0o644); err != nil {
			return fail(exitError, "writing %s: %v", out+suffix, err)
		}
	}
	base := filepath.Base(out)
	pc.Commands = append(pc.Commands,
		fmt.Sprintf("cosign verify-blob --new-bundle-format --bundle %s.sigstore.json --key %s.operator.pub%s %s.statement.txt",
			base, base, root, base),
		"# cosign checks the seal alone (its key's fingerprint must be the published one); the statement's sha256 line must be the stops.json's")
	return nil
}

// printWitness says where the unattended flags fall against the
// schedulers' record; the seqs outside any run are named, never dropped.
func printWitness(w io.Writer, c *census.WitnessCounts) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "\nwitness (%s): %d runs", strings.Join(c.Kinds, ", "), c.Runs)
	j := c.Unattended
	if j == nil {
		fmt.Fprintln(w, "; no register to place")
		return
	}
	fmt.Fprintln(w)
	for _, x := range []struct {
		name string
		p    census.WitnessPlace
	}{{"unattended denies", j.Deny}, {"unattended asks", j.Ask}} {
		fmt.Fprintf(w, "  %s: %d inside a recorded run, %d outside any, %d unchecked", x.name, x.p.Inside, x.p.Outside, x.p.Unchecked)
		if len(x.p.OutsideSeqs) > 0 {
			seqs := make([]string, len(x.p.OutsideSeqs))
			for i, s := range x.p.OutsideSeqs {
				seqs[i] = fmt.Sprint(s)
			}
			fmt.Fprintf(w, " (outside: seq %s)", strings.Join(seqs, ", "))
		}
		fmt.Fprintln(w)
	}
}
