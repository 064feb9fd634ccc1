package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/toolcall"
)

// replayOutput is the JSON of `sentinel replay --json`.
type replayOutput struct {
	Source         string `json:"source"`
	CatalogVersion string `json:"catalog_version"`
	CatalogHash    string `json:"catalog_hash"` // with the configuration replayed under
	Config         string `json:"config"`
	*protocol.ReplayReport
	mustKeepFile string // --must-keep as given, for the table's last line
}

func newReplayCmd() *cobra.Command {
	var bundlePath, mustKeepPath, configPath string
	var asJSON bool
	var pin pins
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Re-decide the whole register with this binary's catalog; gate on must-keep hits",
		Long: `replay re-decides every register entry whose input is available with the
rule catalog of the running binary and the operator's configuration, each
in the mode it was recorded in (an unattended entry is replayed unattended).
Entries published as commitments only cannot be replayed and are counted.

It reports decisions that changed (by direction and by rule, with what
happened the first time: held, breached, approved, ...), flags gained and
lost, flags graded true that would be lost, flags graded false that would be
removed, and self-concordance before and after (over the replayed entries;
the operator's own grading, not precision).

The must-keep file lists entries that every rule change must still deny,
each by sequence number AND commitment, so the file cannot silently point at
a different entry. Losing any one fails the replay, whatever the other
figures say. Formats: one "SEQ COMMITMENT [note]" per line (# comments), or
TOML with [[must_keep]] tables (a protocol file works) when the name ends
in .toml.

Exit codes: 0 every must-keep entry still denied (or none listed),
1 a must-keep entry is lost, points at a different entry, is missing or
cannot be replayed (each is named), 3 usage, 4 could not read the register,
bundle, configuration or must-keep file, 5 no register.`,
		Example: `  sentinel replay --must-keep keep.txt
  sentinel replay --bundle register-bundle.json --must-keep protocol.toml --json
  sentinel replay --config /tmp/candidate.toml --must-keep keep.txt   # judge a rule change`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var mk []protocol.MustKeep
			if mustKeepPath != "" {
				var err error
				if mk, err = protocol.LoadMustKeep(mustKeepPath); err != nil {
					return fail(exitError, "must-keep: %v", err)
				}
			}
			cfg, cfgName, err := replayConfig(configPath)
			if err != nil {
				return err
			}
			src, source, closeFn, err := replaySource(cmd, bundlePath, &pin, asJSON)
			if err != nil {
				return err
			}
			defer closeFn()
			spill, err := newChangeSpill(asJSON)
			if err != nil {
				return fail(exitError, "replay: %v", err)
			}
			defer spill.close()
			rep, err := protocol.ReplayFrom(src, protocol.HookDecider(cfg, replayEnv()), mk, spill.add)
			if err != nil {
				return fail(exitError, "replay: %v", err)
			}
			out := replayOutput{mustKeepFile: mustKeepPath, Source: source, CatalogVersion: judge.CatalogVersion,
				CatalogHash: judge.CatalogHashFor(cfg), Config: cfgName, ReplayReport: rep}
			w := cmd.OutOrStdout()
			if asJSON {
				if err := spill.writeJSON(w, &out); err != nil {
					return fail(exitError, "replay: %v", err)
				}
			} else {
				rep.Changes = spill.first
				printReplay(w, &out)
			}
			if fails := rep.GateFailures(); len(fails) > 0 {
				msgs := make([]string, len(fails))
				for i, k := range fails {
					msgs[i] = keepMessage(k)
				}
				return failCode("gate_failed", "must-keep gate FAILED:\n  %s", strings.Join(msgs, "\n  "))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&bundlePath, "bundle", "", "replay an exported bundle instead of the local register")
	cmd.Flags().StringVar(&mustKeepPath, "must-keep", "", "entries that must still be denied (SEQ COMMITMENT lines, or .toml)")
	cmd.Flags().StringVar(&configPath, "config", "", "operator configuration to replay under (default: your config.toml)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	pin.flags(cmd.Flags()) // for --bundle
	return cmd
}

// replayConfig loads the configuration a replay runs under: the file given,
// or the operator's own (as the hook would use it; project files are not
// read, they belong to the working tree of the day).
func replayConfig(file string) (*judge.Config, string, error) {
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, "", fail(exitError, "config: %v", err)
		}
		cfg, err := judge.ParseConfig(file, string(data), true)
		if err != nil {
			return nil, "", fail(exitError, "%v", err)
		}
		return cfg, file, nil
	}
	dir, err := paths.ConfigDir()
	if err != nil {
		return nil, "", fail(exitError, "%v", err)
	}
	cfg, err := judge.LoadConfig(dir, "")
	if err != nil {
		return nil, "", fail(exitError, "%v", err)
	}
	name := filepath.Join(dir, judge.UserConfigFile)
	if _, err := os.Stat(name); err != nil {
		name = "shipped defaults"
	}
	return cfg, name, nil
}

// replayEnv is the machine side of a replayed decision, built as the hook
// builds it (toolcall): the sentinel's own paths stay protected.
func replayEnv() *toolcall.Environ {
	return toolcall.NewEnviron(os.Getenv)
}

// replaySource streams the local register (with its indexes), or a bundle
// read through the verification verify does (replayBundle).
func replaySource(cmd *cobra.Command, bundlePath string, pin *pins, asJSON bool) (protocol.Source, string, func(), error) {
	if bundlePath != "" {
		each, name, closeFn, err := replayBundle(cmd, bundlePath, pin, asJSON)
		return protocol.Source{Each: each}, name, closeFn, err
	}
	r, err := protoOpenRegister(true)
	if err != nil {
		return protocol.Source{}, "", nil, err
	}
	stop := registerProgress(cmd, r, "replaying", asJSON, false)
	return protocol.Source{Each: outcome.Entries(r), Index: r}, r.Path(), func() { stop(); r.Close() }, nil
}

func keepMessage(k protocol.KeepResult) string {
	note := ""
	if k.Note != "" {
		note = " (" + k.Note + ")"
	}
	switch k.Status {
	case protocol.KeepLost:
		return fmt.Sprintf("entry %d%s is no longer denied: %s -> %s [%s]", k.Seq, note, k.Before, k.After, strings.Join(k.Rules, ","))
	case protocol.KeepMismatch:
		return fmt.Sprintf("entry %d%s: the commitment differs, the must-keep file points at a different entry", k.Seq, note)
	case protocol.KeepMissing:
		return fmt.Sprintf("entry %d%s is not in the register", k.Seq, note)
	case protocol.KeepNotReplay:
		return fmt.Sprintf("entry %d%s is a commitment only: its input is withheld, it cannot be re-decided", k.Seq, note) // or withheld entirely
	case protocol.KeepNotADecision:
		return fmt.Sprintf("entry %d%s is not a decision", k.Seq, note)
	}
	return fmt.Sprintf("entry %d%s: %s", k.Seq, note, k.Status)
}

func printReplay(w io.Writer, o *replayOutput) {
	r := o.ReplayReport
	fmt.Fprintf(w, "replayed %d of %d decisions from %s\n", r.Replayed, r.Decisions, o.Source)
	fmt.Fprintf(w, "  catalog %s, hash %s, config: %s\n", o.CatalogVersion, o.CatalogHash, o.Config)
	fmt.Fprintf(w, "  not replayable (commitment only): %d\n", r.NotReplayable)
	if r.ReplayErrors > 0 {
		fmt.Fprintf(w, "  could not be judged now: %d\n", r.ReplayErrors)
	}
	fmt.Fprintf(w, "changed: %d\n", r.Changed)
	for _, k := range replayKeys(r.ByDirection) {
		fmt.Fprintf(w, "  %-14s %d\n", k, r.ByDirection[k])
	}
	if len(r.ByRule) > 0 {
		fmt.Fprintln(w, "by rule (entries it stopped / started firing on):")
		for _, k := range replayKeys(r.ByRule) {
			fmt.Fprintf(w, "  %-28s -%d +%d\n", k, r.ByRule[k].Lost, r.ByRule[k].Gained)
		}
	}
	for i, c := range r.Changes {
		if i == maxListed {
			break
		}
		grade := ""
		if c.Grade != "" {
			grade = ", graded " + c.Grade
		}
		fmt.Fprintf(w, "  entry %d %s: %s -> %s [%s -> %s], first time %s%s\n", c.Seq, c.Tool, c.Before, c.After,
			strings.Join(c.RulesBefore, ","), strings.Join(c.RulesAfter, ","), c.FirstTime, grade)
	}
	if r.Changed > maxListed {
		fmt.Fprintf(w, "  ... %d more (--json lists all)\n", r.Changed-maxListed)
	}
	fmt.Fprintf(w, "flags: %d before, %d after (gained %d, lost %d)\n", r.FlagsBefore, r.FlagsAfter, r.FlagsGained, r.FlagsLost)
	fmt.Fprintf(w, "graded true flags lost: %d%s\n", len(r.GradedTrueLost), replaySeqs(r.GradedTrueLost))
	fmt.Fprintf(w, "graded false flags removed: %d%s\n", len(r.GradedFalseRemoved), replaySeqs(r.GradedFalseRemoved))
	const none = "not measured (no replayed flag graded true or false)"
	fmt.Fprintf(w, "self-concordance (your own grading, not precision): before %s, after %s\n",
		protoRatio(r.SelfConcordanceBefore, none), protoRatio(r.SelfConcordanceAfter, none))
	if len(r.MustKeep) == 0 {
		if o.mustKeepFile != "" {
			// The file was given: telling its user to pass --must-keep misleads.
			fmt.Fprintf(w, "must-keep: %s lists no entry (nothing to gate)\n", o.mustKeepFile)
		} else {
			fmt.Fprintln(w, "must-keep: none listed (--must-keep FILE)")
		}
		return
	}
	fmt.Fprintf(w, "must-keep: %d listed, gate %s\n", len(r.MustKeep), strings.ToUpper(r.Gate))
	for _, k := range r.MustKeep {
		fmt.Fprintf(w, "  %-8s %s\n", k.Status, keepMessageShort(k))
	}
}

func keepMessageShort(k protocol.KeepResult) string {
	s := fmt.Sprintf("entry %d", k.Seq)
	if k.Before != "" || k.After != "" {
		s += fmt.Sprintf(" %s -> %s", k.Before, replayDash(k.After))
	}
	if k.Note != "" {
		s += "  (" + k.Note + ")"
	}
	return s
}

func replayDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func replaySeqs(seqs []int64) string {
	if len(seqs) == 0 {
		return ""
	}
	parts := make([]string, 0, len(seqs))
	for i, s := range seqs {
		if i == 20 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprint(s))
	}
	return " (entry " + strings.Join(parts, ", ") + ")"
}

func replayKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// replayBundle streams the entries of an exported bundle that verify
// accepts (openVerified): only the entries its verified seals cover; a
// bundle that does not verify, or has no verified seal, is not replayed. A
// bundle checked against its own operator key (no pin) is replayed with a
// NOT PINNED line on stderr.
func replayBundle(cmd *cobra.Command, path string, pin *pins, asJSON bool) (func(func(register.Entry) error) error, string, func(), error) {
	o, _, err := pin.options()
	if err != nil {
		return nil, "", nil, err
	}
	v, err := openVerified(context.Background(), cmd, path, "", false, o, pin, "verifying the bundle", asJSON)
	if err != nil {
		return nil, "", nil, err
	}
	if line := v.Rep.NotPinnedLine(); line != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "sentinel: "+line)
	}
	name := "bundle " + path
	if v.Unsealed > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: %d entries after the last verified seal are not replayed: they prove nothing until sealed\n", v.Unsealed)
		name += fmt.Sprintf(" (entries 1..%d, sealed; %d unsealed not read)", v.Rep.Sealed, v.Unsealed)
	}
	return v.Each, name, v.Close, nil
}

// maxListed is how many changes the table lists.
const maxListed = 20

// changeSpill takes the changes a replay emits, so that they are never all
// in memory: the table keeps the first maxListed; --json writes each to a
// temporary file, copied into the report's "changes" at the end (the
// counts that come before it in the JSON are known only then).
type changeSpill struct {
	first []protocol.Change
	f     *os.File
	bw    *bufio.Writer
	arr   jsonArray
	n     int
}

func newChangeSpill(asJSON bool) (*changeSpill, error) {
	s := &changeSpill{first: []protocol.Change{}}
	if asJSON {
		f, err := os.CreateTemp("", "sentinel-replay-*.json")
		if err != nil {
			return nil, err
		}
		s.f, s.bw = f, bufio.NewWriterSize(f, 64<<10)
		s.arr = jsonArray{w: s.bw, indent: "  "}
	}
	return s, nil
}

func (s *changeSpill) add(c *protocol.Change) error {
	s.n++
	if s.f == nil {
		if len(s.first) < maxListed {
			s.first = append(s.first, *c)
		}
		return nil
	}
	return s.arr.add(c)
}

// writeJSON writes out as protoJSON would with every change in it.
func (s *changeSpill) writeJSON(w io.Writer, out *replayOutput) error {
	out.Changes = []protocol.Change{}
	var head bytes.Buffer
	if err := protoJSON(&head, out); err != nil {
		return err
	}
	const tail = "\"changes\": []\n}\n"
	if !bytes.HasSuffix(head.Bytes(), []byte(tail)) {
		return errors.New("the report does not end with its changes")
	}
	if s.n == 0 {
		_, err := w.Write(head.Bytes())
		return err
	}
	s.arr.end()
	if err := s.bw.Flush(); err != nil {
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head.Bytes()[:head.Len()-len("[]\n}\n")])
	if _, err := io.Copy(bw, s.f); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

func (s *changeSpill) close() {
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
	}
}
