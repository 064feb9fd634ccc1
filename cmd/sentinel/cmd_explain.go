package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/parse"
)

// explainOutput is explain's JSON: what the parser found and the decision.
type explainOutput struct {
	Tool  string        `json:"tool"`
	Parse *parse.Result `json:"parse,omitempty"`
	Error string        `json:"parse_error,omitempty"`
	// Memory and Gate are what the verdict used besides the command: the
	// session memory's answers, the rules the must-keep gate held.
	Memory   []string       `json:"memory,omitempty"`
	Gate     []string       `json:"gate,omitempty"`
	Decision judge.Decision `json:"decision"`
}

func newExplainCmd() *cobra.Command {
	var f judgeFlags
	c := &cobra.Command{
		Use:   "explain [flags] [--] COMMAND",
		Short: "Show how a command is read and which rules fire",
		Long: `explain shows how sentinel reads a Bash command: every execution it
found as the hook judged it (its argv after unwrapping, with words that
are only known at run time marked ~dynamic; the executions inside a script
the command runs, read from disk, marked with the file), the wrappers removed (sudo, env, xargs, ...), where
nested code came from (bash -c, eval, $(...), a pipe into sh, ssh, an
interpreter one-liner) and at what depth, the directory it runs in, its
redirects, code it runs that cannot be read; then the spans that were
recognised as data (echo arguments, commit messages, patterns, quoted
heredocs) and why; what the session's memory answered (--session) and what
the must-keep gate held; then the decision with the rules that fired. The
decision is the hook's: explain and check call the hook's own function.

It accepts the same flags as check; for other tools only the decision is
shown. It does not write the register. Exit codes: 0 explained, 3 usage,
4 could not run.`,
		Example: `  sentinel explain 'echo "git reset --hard" | sh'
  sentinel explain -- 'git commit -m "never run git stash drop"'
  sentinel explain --json -- 'sudo bash -c "rm -rf ~"'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			j, err := f.judge(args)
			if err != nil {
				return err
			}
			d := j.r.Final()
			out := explainOutput{Tool: j.call.ToolName, Decision: d}
			if d.Used != nil {
				out.Parse, out.Memory, out.Gate = d.Used.Parse, d.Used.Memory, d.Used.Gate
			}
			if j.call.ToolName == "Bash" && out.Parse == nil {
				// Not judged: show why the command could not be read.
				if _, perr := parse.Parse(strings.Join(args, " "), parse.Options{Cwd: j.call.Cwd, Home: j.env.Home}); perr != nil {
					out.Error = perr.Error()
				}
			}
			w := cmd.OutOrStdout()
			if f.json {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if err := enc.Encode(out); err != nil {
					return fail(exitError, "%v", err)
				}
				return nil
			}
			printExplain(w, out)
			return nil
		},
	}
	f.register(c)
	return c
}

func printExplain(w io.Writer, out explainOutput) {
	if out.Error != "" {
		fmt.Fprintf(w, "could not read the command: %s\n\n", out.Error)
	}
	if out.Parse != nil {
		fmt.Fprintf(w, "executions (%d):\n", len(out.Parse.Execs))
		for i, e := range out.Parse.Execs {
			fmt.Fprintf(w, "  %d. %s\n", i+1, explainArgv(e))
			var facts []string
			o := e.Origin.Kind
			if e.Origin.Via != "" {
				o += " via " + e.Origin.Via
			}
			facts = append(facts, fmt.Sprintf("origin: %s, depth %d", o, e.Origin.Depth))
			if e.Dynamic {
				facts = append(facts, "command name only known at run time")
			}
			if len(e.Wrappers) > 0 {
				facts = append(facts, "wrappers: "+strings.Join(e.Wrappers, ", "))
			}
			if e.ExtraArgs {
				facts = append(facts, "runs with further unknown arguments")
			}
			if e.Synthetic {
				facts = append(facts, "inferred from interpreter code")
			}
			if e.InFile != "" {
				facts = append(facts, "inside "+e.InFile+" (read from disk)")
			}
			if e.Dir != "" {
				facts = append(facts, "dir: "+e.Dir)
			} else {
				facts = append(facts, "dir: unknown")
			}
			if e.Pipeline != 0 {
				facts = append(facts, fmt.Sprintf("pipeline %d stage %d", e.Pipeline, e.Stage))
			}
			for _, r := range e.Redirects {
				facts = append(facts, fmt.Sprintf("redirect %s %s", r.Op, explainWord(r.Target)))
			}
			for _, a := range e.Assigns {
				facts = append(facts, fmt.Sprintf("assign %s=%s", a.Name, explainWord(a.Value)))
			}
			if e.RunsCode != nil {
				src := "an unknown place"
				if len(e.RunsCode.Sources) > 0 {
					src = "the output of " + strings.Join(e.RunsCode.Sources, ", ")
				}
				facts = append(facts, fmt.Sprintf("runs code (%s) from %s", e.RunsCode.How, src))
			}
			for _, f := range facts {
				fmt.Fprintf(w, "     %s\n", f)
			}
		}
		if len(out.Parse.Data) > 0 {
			fmt.Fprintf(w, "data, not commands (%d):\n", len(out.Parse.Data))
			for _, d := range out.Parse.Data {
				fmt.Fprintf(w, "  %q: %s\n", d.Text, d.Why)
			}
		}
		fmt.Fprintln(w)
	}
	if len(out.Memory) > 0 {
		fmt.Fprintf(w, "session memory (%d):\n", len(out.Memory))
		for _, m := range out.Memory {
			fmt.Fprintf(w, "  %s\n", m)
		}
		fmt.Fprintln(w)
	}
	if len(out.Gate) > 0 {
		fmt.Fprintf(w, "held closed by the must-keep gate (%d):\n", len(out.Gate))
		for _, g := range out.Gate {
			fmt.Fprintf(w, "  %s\n", g)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "decision: ")
	printDecision(w, out.Decision)
}

func explainArgv(e parse.Exec) string {
	parts := make([]string, len(e.Argv))
	for i, a := range e.Argv {
		parts[i] = explainWord(a)
	}
	return strings.Join(parts, " ")
}

// explainWord quotes a word when needed and marks dynamic ones.
func explainWord(w parse.Word) string {
	s := w.Value
	if s == "" || strings.ContainsAny(s, " \t\n'\"") {
		s = fmt.Sprintf("%q", s)
	}
	if !w.Static {
		s += "~dynamic"
	}
	return s
}
