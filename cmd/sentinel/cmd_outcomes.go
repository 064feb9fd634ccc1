package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
	"github.com/sentinel-guard/sentinel/transcript"
)

func newOutcomesCmd() *cobra.Command {
	var asJSON, all bool
	var transcripts string
	var n int
	cmd := &cobra.Command{
		Use:   "outcomes",
		Short: "Join every decision to what happened: approved, declined, held, breached",
		Long: `outcomes joins each PreToolUse decision in the register to what happened
next, from two kinds of evidence: outcome entries (the PostToolUse and
PostToolUseFailure hooks record that a call ran, by tool_use_id, never its
output) and the transcripts, read by the same reader as the census (the
harness's permissionDecision and toolDenialKind records first, fixed texts
only for older files).

  ask    approved (it ran, or the harness recorded the human's yes),
         declined (the human's no at the prompt), unanswered (the harness
         rejected it because nobody could answer: -p, headless) or unknown
         (no evidence either way; the reason is given)
  deny   held, or BREACHED: the call ran anyway (ran and failed is ran),
         the harness did not obey
  allow  ran or not_run

A cell whose evidence is missing prints "—" (null in --json "summary"),
never 0: without outcome entries (PostToolUse never installed) held,
breached, ran and not_run are not measured; without transcripts, declined
and unanswered are not. The census prints the same cells.

By default the flags (ask and deny) are listed; --all adds the allows.
A breach is reported loudly and makes the exit code 1.

Exit codes: 0 no breach, 1 at least one breach, 4 the register or the
transcripts could not be read, 5 no register.`,
		Example: `  sentinel outcomes
  sentinel outcomes --transcripts ~/.claude/projects --json | jq .summary`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := protoOpenRegister(true)
			if err != nil {
				return err
			}
			defer r.Close()
			answers, dir, err := readAnswersFor(transcripts, true)
			if err != nil {
				return err
			}
			defer answers.Close()
			c, err := newRowCap(cmd, n, asJSON, true)
			if err != nil {
				return err
			}
			defer registerProgress(cmd, r, "joining", asJSON, false)()
			w := cmd.OutOrStdout()
			brs, err := streamOutcomes(w, r, answers, all, asJSON, dir, c)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			if len(brs) > 0 {
				return failCode("breach", "%s", breachMessage(brs))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "list allows too")
	cmd.Flags().IntVarP(&n, "n", "n", -1, "at most the last N rows (0: all; default all, or 100 on a terminal); the summary counts every decision")
	cmd.Flags().StringVar(&transcripts, "transcripts", "", "transcript directory (default $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)")
	return cmd
}

// readAnswersFor reads what the transcripts in dir (default Claude Code's)
// say about asks, for outcome.Of. A default directory that does not exist
// gives nil answers (declined and unanswered are then not measured); a named
// one that cannot be read is an error. calls: also collect the tool calls,
// for the unguarded join. The caller closes the answers and checks their
// Err after the join (a lookup in their temporary file can fail).
func readAnswersFor(dir string, calls bool) (*outcome.Answers, string, error) {
	explicit := dir != ""
	if !explicit {
		dir = transcript.DefaultDir(paths.Home())
	}
	if _, err := os.Stat(dir); err != nil && !explicit {
		return nil, dir, nil
	}
	answers, _, err := outcome.ReadAnswers([]string{dir}, calls)
	if err != nil {
		answers.Close()
		return nil, dir, fail(exitError, "%v", err)
	}
	return answers, dir, nil
}

// streamOutcomes joins the register in SQLite (outcome.JoinRegister) and
// prints each result as it comes, so that memory stays flat however many
// decisions are listed: the JSON array is written element by element (the
// "outcomes" key first, then the summary, counts and transcripts, which are
// known only at the end), the table is aligned per block of rows. It
// returns the breaches, which make the exit code.
func streamOutcomes(w io.Writer, r *register.Register, answers *outcome.Answers, all, asJSON bool, dir string, c *rowCap) ([]outcome.Breach, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var brs []outcome.Breach
	var tw *tabwriter.Writer
	n := 0
	arr := jsonArray{w: bw, indent: "  "}
	if asJSON {
		bw.WriteString("{\n  \"outcomes\": ")
	} else {
		tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SEQ\tDECISION\tTOOL\tRULES\tOUTCOME\tWHY")
	}
	sum, err := outcome.JoinRegister(r, answers, outcome.Options{All: all}, func(res *outcome.Result) error {
		if res.Status == outcome.Breached {
			brs = append(brs, outcome.Breach{Seq: res.Seq, Time: res.Time, Tool: res.Tool, ToolUseID: res.ToolUseID, Rules: res.Rules, OutcomeSeq: res.OutcomeSeq})
		}
		var line string
		if asJSON {
			b, err := json.MarshalIndent(res, "    ", "  ")
			if err != nil {
				return err
			}
			line = string(b)
		} else {
			st := res.Status
			if st == outcome.Breached {
				st = "BREACHED"
			}
			line = fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\n", res.Seq, res.Decision, res.Tool, strings.Join(res.Rules, ","), st, res.Reason)
		}
		if !c.add(line) {
			return nil
		}
		if asJSON {
			return arr.addRaw(line)
		}
		tw.Write([]byte(line))
		if n++; n%logBlock == 0 {
			return tw.Flush()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Calls the transcripts show that the hook never judged.
	sessions := []outcome.UnguardedSession{}
	if answers != nil {
		n, ss, err := outcome.UnguardedSessionsIn(r, answers.Calls)
		if err != nil {
			return nil, err
		}
		sum.Unguarded, sessions = n, ss
		if err := answers.Err(); err != nil {
			return nil, err
		}
	}
	cells := sum.Cells()
	if asJSON {
		for _, l := range c.keptLines() {
			arr.addRaw(l)
		}
		arr.end()
		kvs := []struct {
			k string
			v any
		}{{"summary", cells}, {"counts", sum}, {"unguarded_sessions", sessions}, {"transcripts", dir}}
		if l := c.left(); l > 0 {
			kvs = append(kvs, struct {
				k string
				v any
			}{"not_shown", l})
		}
		for _, kv := range kvs {
			b, err := json.MarshalIndent(kv.v, "  ", "  ")
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(bw, ",\n  %q: %s", kv.k, b)
		}
		bw.WriteString("\n}\n")
	} else {
		c.kept(tw)
		tw.Flush()
		bw.WriteString(c.note("decisions"))
		printOutcomeCells(bw, sum, &cells, dir)
		printUnguarded(bw, sessions)
	}
	return brs, bw.Flush()
}

func printOutcomeCells(w io.Writer, sum *outcome.Summary, c *outcome.Cells, dir string) {
	a := c.Asks
	fmt.Fprintf(w, "\nasks %s: presented %s (approved %s, declined %s, unknown %s), nobody to answer %s\n",
		nullCell(a.Total), nullCell(a.Presented), nullCell(a.Approved), nullCell(a.Declined), nullCell(a.Unknown), nullCell(a.Unanswered))
	fmt.Fprintf(w, "denies held %s, breached %s\n", nullCell(c.Denies.Held), nullCell(c.Denies.Breached))
	fmt.Fprintf(w, "allows ran %s, not run %s\n", nullCell(c.Allows.Ran), nullCell(c.Allows.NotRun))
	fmt.Fprintf(w, "unguarded %s (tool calls in the transcripts the hook never judged)\n", nullCell(c.Unguarded))
	fmt.Fprintf(w, "evidence: %d outcome entries (%d of calls that ran and failed, %d without a decision), %d transcript file(s) under %s\n",
		sum.OutcomeEntries, sum.FailedEntries, sum.Orphans, sum.TranscriptsRead, dir)
	seen := map[string]bool{}
	for _, n := range c.NotMeasured {
		if !seen[n.Reason] {
			seen[n.Reason] = true
			fmt.Fprintf(w, "not measured (—): %s\n", n.Reason)
		}
	}
}

// printUnguarded names the sessions with calls the hook never judged.
func printUnguarded(w io.Writer, sessions []outcome.UnguardedSession) {
	for _, s := range sessions {
		fmt.Fprintf(w, "UNGUARDED: session %s: %d tool call(s) from %s to %s have no decision in the register or the journal (the session ran without the hook)\n",
			s.Session, s.Calls, s.First.UTC().Format(time.RFC3339), s.Last.UTC().Format(time.RFC3339))
	}
}

// nullCell prints a cell, "—" for not measured (never 0).
func nullCell(v *int64) string {
	if v == nil {
		return "—"
	}
	return fmt.Sprint(*v)
}

// breachMessage names every breach (a deny the harness ran anyway).
func breachMessage(brs []outcome.Breach) string {
	seqs := make([]string, 0, len(brs))
	for _, b := range brs {
		seqs = append(seqs, fmt.Sprintf("%d (%s %s, ran: outcome entry %d)", b.Seq, b.Tool, strings.Join(b.Rules, ","), b.OutcomeSeq))
	}
	return fmt.Sprintf("BREACH: %d denied call(s) ran anyway: entry %s", len(brs), strings.Join(seqs, "; "))
}

// Breaches are verify findings: the chain may be intact and still record
// that the harness did not obey a deny.
func breachFindings(rep *seal.Report, reg *register.Register, b *bundle.Bundle) {
	var brs []outcome.Breach
	var err error
	switch {
	case reg != nil:
		// By the tool_use_id index: constant memory at any size.
		err = reg.DeniesThatRan(0, func(d, o *register.Entry) error {
			brs = append(brs, outcome.Breach{Seq: d.Seq, Time: d.Time, Tool: d.Tool, ToolUseID: d.ToolUseID, Rules: d.Rules, OutcomeSeq: o.Seq})
			return nil
		})
	case b != nil:
		brs, err = outcome.BreachesFrom(func(fn func(register.Entry) error) error {
			for _, e := range b.Entries {
				if e != nil {
					if err := fn(*e); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	if err != nil {
		rep.Findings = append(rep.Findings, seal.Finding{Kind: "outcomes", Message: "could not join decisions to outcomes: " + err.Error()})
		return
	}
	for _, br := range brs {
		rep.Findings = append(rep.Findings, seal.Finding{Kind: "breach", Seq: br.Seq,
			Message: fmt.Sprintf("entry %d (%s %s) was denied but ran anyway (outcome entry %d)", br.Seq, br.Tool, strings.Join(br.Rules, ","), br.OutcomeSeq)})
	}
}
