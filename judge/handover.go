package judge

import (
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleShellHandover = "SHELL-HANDOVER"
)

// Under Codex a command started by exec_command keeps running, and the
// model types into it later with write_stdin, which no hook ever sees
// (docs/codex.md). A command that reads the commands it runs from its
// stdin (programs.ReadsCommands: a bare bash, python, node, ssh HOST, or
// cat | sh) is then a shell handed to the session: everything typed into
// it runs unjudged. Claude Code's Bash tool gives a command no terminal
// and no way to write to it later (its stdin ends at once), so there the
// same command reads nothing and the rule does not apply.
var _ = rules(
	Rule{ID: RuleShellHandover, Class: ClassOversight, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "under Codex, a command that reads further commands from its terminal hands the session a shell: what is typed into it later (write_stdin) is never judged",
		Alternative: "run each command as its own call (bash -c '...', python3 script.py, ssh host 'cmd'), so that each one is judged",
		Matches:     "under Codex: a shell or interpreter with no code, script or module and no input given (`bash`, `sh -s`, `python3`, `python3 -i x.py`, `node`), `ssh HOST` with no command, a shell fed by `cat` or `tee` that read the terminal (`cat | sh`)",
		Fire:        []string{"codex: bash", "codex: python3", "codex: cat | sh", "codex: ssh build-host", "codex: sudo -s", "codex: python3 -i x.py"},
		Pass:        []string{"bash", "python3", "cat | sh", "codex: bash -c 'ls'", "codex: python3 x.py", "codex: echo ls | sh", "codex: sh < x.sh", "codex: ssh build-host uptime", "codex: cat x.sh | sh", "codex: python3 --version"}},
)

var _ = onCommand(func(j *judge, res *parse.Result) {
	if j.harness != HarnessCodex {
		return
	}
	for i, e := range res.Execs {
		if e.Dynamic || e.HelpOnly || e.Synthetic || len(e.Argv) == 0 {
			continue
		}
		args := staticArgs(e.Argv[1:])
		if !programs.ReadsCommands(e.Name, args) {
			continue
		}
		if !e.Stdin || e.Stage > 0 && j.feedsTerminal(res.Execs, i) {
			j.add(RuleShellHandover, "reads commands from the terminal: "+e.Name)
			return
		}
	}
})

// feedsTerminal reports that the stage before execs[i] in its pipeline
// passes on what it reads from a terminal (cat | sh).
func (j *judge) feedsTerminal(execs []parse.Exec, i int) bool {
	e := execs[i]
	for _, x := range execs {
		if x.Pipeline == e.Pipeline && x.Stage == e.Stage-1 && !x.Stdin && !x.Dynamic && len(x.Argv) > 0 {
			return programs.CopiesStdin(x.Name, staticArgs(x.Argv[1:]))
		}
	}
	return false
}

// staticArgs are the words' values (a dynamic word as written).
func staticArgs(ws []parse.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}
