package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

func newOutcomesCmd() *cobra.Command {
	var asJSON, all bool
	var transcripts string
	cmd := &cobra.Command{
		Use:   "outcomes",
		Short: "Join every decision to what happened: approved, declined, held, breached",
		Long: `outcomes joins each PreToolUse decision in the register to what happened
next, from two kinds of evidence: outcome entries (the PostToolUse hook
records that a call ran, by tool_use_id, never its output) and the
transcripts (the user's rejection at the permission prompt, matched by
fixed prefixes only).

  ask    approved (it ran), declined (the transcript shows the user's
         rejection) or unknown (no evidence either way; the reason is given)
  deny   held, or BREACHED: the call ran anyway, the harness did not obey
  allow  ran or not_run

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
			if transcripts == "" {
				transcripts = outcome.DefaultTranscriptDir(paths.Home())
			}
			rj, err := outcome.ReadRejections(transcripts)
			if err != nil {
				return fail(exitError, "reading transcripts: %v", err)
			}
			results, sum, err := outcome.Join(outcome.Entries(r), rj)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			shown := results[:0:0]
			for _, res := range results {
				if all || res.Decision != "allow" {
					shown = append(shown, res)
				}
			}
			w := cmd.OutOrStdout()
			if asJSON {
				if err := protoJSON(w, map[string]any{"outcomes": shown, "summary": sum, "transcripts": transcripts}); err != nil {
					return err
				}
			} else {
				printOutcomes(w, shown, sum, transcripts)
			}
			if sum.Denies.Breached > 0 {
				var brs []outcome.Breach
				for _, res := range results {
					if res.Status == outcome.Breached {
						brs = append(brs, outcome.Breach{Seq: res.Seq, Tool: res.Tool, Rules: res.Rules, OutcomeSeq: res.OutcomeSeq})
					}
				}
				return failCode("breach", "%s", breachMessage(brs))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "list allows too")
	cmd.Flags().StringVar(&transcripts, "transcripts", "", "transcript directory (default $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)")
	return cmd
}

func printOutcomes(w io.Writer, results []outcome.Result, sum *outcome.Summary, dir string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tDECISION\tTOOL\tRULES\tOUTCOME\tWHY")
	for _, r := range results {
		st := r.Status
		if st == outcome.Breached {
			st = "BREACHED"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", r.Seq, r.Decision, r.Tool, strings.Join(r.Rules, ","), st, r.Reason)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nasks presented %d: approved %d, declined %d, unknown %d\n",
		sum.Asks.Presented, sum.Asks.Approved, sum.Asks.Declined, sum.Asks.Unknown)
	fmt.Fprintf(w, "denies held %d, breached %d\n", sum.Denies.Held, sum.Denies.Breached)
	fmt.Fprintf(w, "allows ran %d, not run %d\n", sum.Allows.Ran, sum.Allows.NotRun)
	fmt.Fprintf(w, "evidence: %d outcome entries (%d without a decision), %d transcript file(s) under %s\n",
		sum.OutcomeEntries, sum.Orphans, sum.TranscriptsRead, dir)
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
		brs, err = outcome.Breaches(reg)
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

// logOutcomes derives the outcome of each decision shown by `sentinel log`
// from the outcome entries with the same tool_use_id (indexed look-ups, so
// a page of the log costs a page of queries). Transcripts are not read
// here: an ask that did not run shows as unknown; `sentinel outcomes`
// also looks for the user's rejection.
func logOutcomes(reg *register.Register, es []*register.Entry) map[int64]string {
	out := map[int64]string{}
	for _, e := range es {
		if (e.Kind != register.KindDecision && e.Kind != register.KindError) || e.Decision == "" {
			continue
		}
		ran := false
		if e.ToolUseID != "" {
			same, err := reg.FindByToolUseID(e.ToolUseID)
			if err != nil {
				continue // leave it blank rather than guess
			}
			for _, o := range same {
				ran = ran || o.Kind == register.KindOutcome
			}
		}
		out[e.Seq], _ = outcome.Classify(e.Decision, e.ToolUseID != "", ran, false)
	}
	return out
}
