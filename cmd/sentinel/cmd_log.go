package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// parseLogSince reads a friendly point in time: a date (2026-11-30, local
// midnight), RFC 3339, or a duration back from now (90m, 24h, 7d).
func parseLogSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04", s, time.Local); err == nil {
		return t, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d >= 0 {
			return now.AddDate(0, 0, -d), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a date (2026-11-30), RFC 3339 (2026-11-30T08:00:00Z) or a duration (90m, 24h, 7d)", s)
}

// shortInput renders an entry's input on one line for the table: the
// command, path, URL or pattern when there is one, else settingsCompact JSON.
func shortInput(in []byte, width int) string {
	if len(in) == 0 {
		return "-"
	}
	s := string(in)
	var m map[string]any
	if json.Unmarshal(in, &m) == nil {
		for _, k := range []string{"command", "file_path", "notebook_path", "url", "pattern", "query", "path"} {
			if v, ok := m[k].(string); ok && v != "" {
				s = v
				break
			}
		}
	}
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ⏎ ")), " ")
	if r := []rune(s); len(r) > width {
		s = string(r[:width-1]) + "…"
	}
	return s
}

// logEntry is an entry as log --json prints it: everything but the salt.
type logEntry struct {
	*register.Entry
	Salt  []byte          `json:"salt,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// Attended is whether a human could answer the call's prompt: a
	// property of decisions (and errors) only. Grade and outcome entries
	// are no call's decision, so it is null for them (the register stores
	// false there, under the hash), and select(.attended == false) finds
	// exactly the unattended decisions.
	Attended *bool `json:"attended"`
	// Outcome is derived, by outcome.Of as sentinel outcomes derives it.
	Outcome string `json:"outcome,omitempty"`
	// Of is the decision an outcome or grade entry refers to (its
	// sequence number): a grade's ref; an outcome's decision by tool_use_id.
	Of int64 `json:"of,omitempty"`
}

// entryJSON is e as every --json output prints an entry.
func entryJSON(e *register.Entry) logEntry {
	le := logEntry{Entry: e}
	if e.Kind == register.KindDecision || e.Kind == register.KindError {
		a := e.Attended
		le.Attended = &a
	}
	if json.Valid(e.Input) {
		le.Input = e.Input
	}
	return le
}

// streamLog prints the entries f selects, newest first, one at a time:
// memory stays flat however many entries -n 0 prints (the JSON array is
// written element by element; the table is aligned per block of rows).
// Each outcome and grade row names the decision it refers to (OF); with
// --json each decision carries its outcome, by outcome.Of with answers.
func streamLog(w io.Writer, reg *register.Register, f register.Filter, asJSON bool, answers *outcome.Answers) error {
	of, doneOf, err := reg.DecisionLookup()
	if err != nil {
		return err
	}
	defer doneOf()
	refOf := func(e *register.Entry) (int64, error) {
		switch e.Kind {
		case register.KindGrade:
			return e.Ref, nil
		case register.KindOutcome:
			return of(e.ToolUseID, e.Seq)
		}
		return 0, nil
	}
	if !asJSON {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SEQ\tTIME (UTC)\tKIND\tDECISION\tOF\tATTENDED\tTOOL\tRULES\tINPUT")
		n := 0
		err := reg.QueryEach(f, func(e *register.Entry) error {
			ref, err := refOf(e)
			if err != nil {
				return err
			}
			printLogRow(tw, e, ref)
			if n++; n%logBlock == 0 {
				return tw.Flush()
			}
			return nil
		})
		if ferr := tw.Flush(); err == nil {
			err = ferr
		}
		return err
	}
	ran, done, err := reg.RanLookup()
	if err != nil {
		return err
	}
	defer done()
	bw := bufio.NewWriterSize(w, 64<<10)
	arr := jsonArray{w: bw}
	err = reg.QueryEach(f, func(e *register.Entry) error {
		le := entryJSON(e)
		if (e.Kind == register.KindDecision || e.Kind == register.KindError) && e.Decision != "" {
			didRun := false
			if e.ToolUseID != "" {
				r, err := ran(e.ToolUseID)
				if err != nil {
					return err
				}
				didRun = r
			}
			le.Outcome, _ = outcome.Of(e.Decision, e.ToolUseID, didRun, answers)
		}
		var err error
		if le.Of, err = refOf(e); err != nil {
			return err
		}
		return arr.add(le)
	})
	if err != nil {
		return err
	}
	arr.end()
	bw.WriteString("\n")
	return bw.Flush()
}

// jsonArray writes a JSON array element by element, indented as
// protoJSON indents the whole value (indent is that of its brackets), so
// that a long list is never all in memory.
type jsonArray struct {
	w      *bufio.Writer
	indent string
	n      int
}

func (a *jsonArray) add(v any) error {
	b, err := json.MarshalIndent(v, a.indent+"  ", "  ")
	if err != nil {
		return err
	}
	return a.addRaw(string(b))
}

// addRaw adds an element already marshalled with the array's indent.
func (a *jsonArray) addRaw(b string) error {
	if a.n == 0 {
		a.w.WriteString("[\n")
	} else {
		a.w.WriteString(",\n")
	}
	a.n++
	a.w.WriteString(a.indent + "  ")
	_, err := a.w.WriteString(b)
	return err
}

// end closes the array ("[]" when nothing was added).
func (a *jsonArray) end() {
	if a.n == 0 {
		a.w.WriteString("[]")
	} else {
		a.w.WriteString("\n" + a.indent + "]")
	}
}

// logBlock is how many rows of the table are aligned together.
const logBlock = 500

// printLogRow prints one entry; ref is the decision an outcome or grade
// entry refers to (0: none, or not found).
func printLogRow(tw io.Writer, e *register.Entry, ref int64) {
	{
		dec := e.Decision
		if dec == "" {
			dec = "-"
			if e.Label != "" {
				dec = e.Label
			}
		}
		att := "yes"
		if !e.Attended {
			att = "no"
		}
		if e.Kind == register.KindOutcome || e.Kind == register.KindGrade {
			att = "-"
		}
		rules := strings.Join(e.Rules, ",")
		if rules == "" {
			rules = "-"
		}
		refers := "-"
		if ref > 0 {
			refers = fmt.Sprintf("#%d", ref)
		} else if e.Kind == register.KindOutcome || e.Kind == register.KindGrade {
			refers = "?" // no decision with its tool_use_id (or ref) in the register
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Seq, e.Time.UTC().Format("2006-01-02 15:04:05"),
			e.Kind, dec, refers, att, dashIfEmpty(e.Tool), rules, shortInput(e.Input, 60))
	}
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func newLogCmd() *cobra.Command {
	var asJSON bool
	var since, decision, kind, tool, transcripts string
	var n int
	cmd := &cobra.Command{
		Use:   "log [--json] [--since D] [--decision deny|ask|allow] [--kind K] [-n N]",
		Short: "Show the register, newest first",
		Long: `log prints the register's entries, newest first: sequence number, time,
kind (decision, error, outcome, grade), decision (an outcome's or grade's
label), OF (the decision an outcome or grade entry refers to: #SEQ), whether
a human was attended, tool, the rules that fired and a short form of the
input. Entries are not calls: a call that ran has its decision and an
outcome entry, and a grade is an entry of its own. With --json each
decision also carries its outcome as sentinel outcomes derives it
(approved, declined, unanswered or unknown; held or breached; ran or
not_run; declined needs the transcripts, read from --transcripts) and each
outcome and grade entry its "of".

The input is shown because this is your own machine's register; it is never
published (bundles and the census carry commitments and counts only).

--since takes a date (2026-11-30), RFC 3339 (2026-11-30T08:00:00Z) or a
duration back from now (90m, 24h, 7d). -n 0 prints every entry.

Exit codes: 0 printed (an empty register prints nothing), 3 usage,
4 the register could not be read, 5 no register yet.`,
		Example: `  sentinel log
  sentinel log --decision deny --since 24h
  sentinel log --kind error -n 5
  sentinel log --json -n 0 | jq '.[] | select(.attended == false)'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f := register.Filter{Decision: decision, Kind: kind, Tool: tool, Limit: n}
			if n < 0 {
				return fail(exitUsage, "-n must be 0 (all) or more, got %d", n)
			}
			switch decision {
			case "", "allow", "ask", "deny":
			default:
				return fail(exitUsage, "--decision %q: want allow, ask or deny", decision)
			}
			switch kind {
			case "", register.KindDecision, register.KindError, register.KindOutcome, register.KindGrade:
			default:
				return fail(exitUsage, "--kind %q: want decision, error, outcome or grade", kind)
			}
			if since != "" {
				t, err := parseLogSince(since, time.Now())
				if err != nil {
					return fail(exitUsage, "%v", err)
				}
				f.Since = t
			}
			path, err := paths.RegisterPath()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			reg, err := register.OpenReadOnly(path)
			if err != nil {
				return registerError(path, err)
			}
			defer reg.Close()
			if n, err := reg.JournalPending(); err == nil && n > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: %d more entries wait in the fallback journal (not shown); the next hook call merges them\n", n)
			}
			defer registerProgress(cmd, reg, "reading", asJSON, true)()
			var answers *outcome.Answers
			if asJSON {
				if answers, _, err = readAnswersFor(transcripts, false); err != nil {
					return err
				}
				defer answers.Close()
			}
			if err := streamLog(cmd.OutOrStdout(), reg, f, asJSON, answers); err != nil {
				return fail(exitError, "%v", err)
			}
			if err := answers.Err(); err != nil {
				return fail(exitError, "%v", err)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the entries as a JSON array (salt omitted)")
	cmd.Flags().StringVar(&since, "since", "", "only entries at or after this date, time or duration ago")
	cmd.Flags().StringVar(&decision, "decision", "", "only this decision: allow, ask or deny")
	cmd.Flags().StringVar(&kind, "kind", "", "only this kind: decision, error, outcome or grade")
	cmd.Flags().StringVar(&tool, "tool", "", "only this tool (Bash, Write, mcp__server__tool, ...)")
	cmd.Flags().IntVarP(&n, "n", "n", 20, "at most N entries (0: all)")
	cmd.Flags().StringVar(&transcripts, "transcripts", "", "transcript directory for --json's outcomes (default $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)")
	return cmd
}
