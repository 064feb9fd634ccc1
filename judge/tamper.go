package judge

import (
	"github.com/sentinel-guard/sentinel/parse"
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// SENTINEL-DISABLE: the guard switched off without touching its files:
// its processes killed by name, the hook uninstalled or reinstalled, its
// binary rebuilt in place, or its own flags graded by the agent it
// watches. (Writing, moving or locking its files and the directories that
// hold them is SENTINEL-TAMPER, in pathrules.go.)

// RuleSentinelDisable is spelled as its id.
const RuleSentinelDisable = "SENTINEL-DISABLE"

var _ = rules(Rule{ID: RuleSentinelDisable, Class: ClassOversight, Severity: SevCritical, Decision: Deny, Catastrophic: true,
	Reason:      "switching the guard off: killing or stopping the sentinel or the agent whose hooks it is, uninstalling or rebuilding the sentinel, or grading its own flags",
	Alternative: "the sentinel is the operator's; ask them",
	Matches:     "`pkill`/`killall` (any signal) of a sentinel or coding-agent process, `kill` of the pids `pgrep`/`pidof` find for one (`$(...)`, `| xargs kill`), `sentinel uninstall`/`install`/`keygen`/`grade`/`register reset|merge`/`protocol keep` and any sentinel subcommand not known to only read (log, verify, doctor, explain, check, replay, rules, ...), `go build -o`/`go install` onto a sentinel binary or its directory",
	Fire: []string{"pkill -f sentinel", "killall sentinel-hook", "killall -STOP sentinel-hook", "kill -STOP $(pgrep -f sentinel-hook)",
		"pgrep -f claude | xargs kill -9", "pkill -9 claude",
		"ps aux | awk '/sentinel/{print $2}' | xargs kill -STOP", "ps -ef | grep claude | awk '{print $2}' | xargs kill -9", "sentinel uninstall", "sentinel grade 12 false",
		"sentinel register reset --accept-loss", "sentinel register merge", "sentinel keys rotate",
		"go build -o ~/.local/bin/ ./cmd/sentinel-hook", "go install ./cmd/sentinel-hook"},
	Pass: []string{"pkill -f 'node server.js'", "kill -STOP $(pgrep -f 'node server.js')", "pgrep -f vite | xargs kill -9", "ps aux | awk '/vite/{print $2}' | xargs kill", "killall -HUP nginx", "sentinel log", "sentinel verify", "sentinel check -- ls",
		"sentinel doctor", "sentinel register status", "sentinel --version", "sentinel explain -- rm -rf /",
		"go build -o ./bin/app ./cmd/app", "go install ./cmd/mytool", "pgrep -f sentinel"},
})

// guardReaders are the sentinel subcommands that only read or report
// (with, for a command group, the subcommands that do); every other one
// (uninstall, install, keygen, grade, register reset|merge,
// protocol keep, and any the model does not know) changes what guards the
// session, its keys or its record: only the operator runs it.
var guardReaders = map[string][]string{
	"census": nil, "check": nil, "demo": nil, "doctor": nil, "explain": nil, "export": nil,
	"grades": nil, "log": nil, "outcomes": nil, "replay": nil, "rules": nil, "seal": nil,
	"verify": nil, "version": nil, "help": nil, "completion": nil,
	"register": {"status"}, "protocol": {"check"},
	"gate": nil, // all of it SENTINEL-REACH (selfreach.go)
}

// guardCommand reports a sentinel invocation that is not a known reader.
func guardCommand(args []string) bool {
	o := programs.Operands(args)
	if len(o) == 0 {
		return false // help, --version
	}
	subs, ok := guardReaders[o[0]]
	if !ok {
		return true
	}
	if subs == nil || len(o) == 1 {
		return false
	}
	for _, s := range subs {
		if o[1] == s {
			return false
		}
	}
	return true
}

var _ = onExec(func(j *judge, x execution) {
	p := programs.Lookup(x.e.Name)
	switch canon(p, x.e.Name) {
	case "pkill", "kill": // killall, skill, slay; kill of pids found by name
		if j.signalsGuard(x) {
			j.add(RuleSentinelDisable, x.detail)
		}
	case "sentinel":
		if guardCommand(x.args) {
			j.add(RuleSentinelDisable, x.detail)
		}
	case "go":
		j.goBuildOntoGuard(x)
	}
})

// signalsGuard reports a killer aimed at the guard or at the agent whose
// calls it sees (killall -STOP sentinel-hook stops it as surely as -9):
// by name, or by the pids a finder printed for such a name, through a
// substitution (kill -STOP $(pgrep -f sentinel-hook)) or xargs (pgrep -f
// claude | xargs kill -9).
func (j *judge) signalsGuard(x execution) bool { return signalsNamed(x, namesGuardOrAgent) }

// signalsNamed reports a killer aimed at a process whose name matches: by
// name (pkill, killall), or by the pids a finder printed for such a name.
func signalsNamed(x execution, match func(string) bool) bool {
	e := x.e
	if programs.Lookup(e.Name).Name == "pkill" {
		for _, t := range programs.KillTargets(e.Name, x.args) {
			if match(t) {
				return true
			}
		}
		return false
	}
	for k := range x.all {
		f := &x.all[k]
		if k == x.i || len(f.Argv) == 0 {
			continue
		}
		fed := f.Pipeline != 0 && f.Pipeline == e.Pipeline && f.Stage == e.Stage-1 && e.ExtraArgs
		inWord := false
		if !fed && f.Origin.Kind == parse.OriginSubst {
			for _, w := range e.Argv[1:] {
				inWord = inWord || !w.Static && strings.Contains(w.Value, f.Name)
			}
		}
		if !fed && !inWord {
			continue
		}
		targets := programs.PidFinder(f.Name, wordValues(f.Argv[1:]))
		for _, t := range targets {
			if match(t) {
				return true
			}
		}
		if fed && targets == nil && pipelineNames(x, e, match) {
			return true
		}
	}
	return false
}

// pipelineNames reports pids computed at run time by text tools (ps aux |
// awk '/sentinel/{print $2}' | xargs kill -STOP, ps -ef | grep claude |
// awk '{print $2}' | xargs kill): a word of an earlier stage of the
// killer's pipeline names a matching process.
func pipelineNames(x execution, e *parse.Exec, match func(string) bool) bool {
	for k := range x.all {
		f := &x.all[k]
		if f.Pipeline == 0 || f.Pipeline != e.Pipeline || f.Stage >= e.Stage || len(f.Argv) == 0 {
			continue
		}
		for _, w := range wordValues(f.Argv[1:]) {
			if match(w) {
				return true
			}
		}
	}
	return false
}

// namesGuardOrAgent reports a process name or pattern that matches the
// guard's or a coding agent's (whose hooks are the guard).
func namesGuardOrAgent(pattern string) bool {
	if namesGuard(pattern) {
		return true
	}
	for _, w := range strings.Fields(strings.Trim(pattern, "^$")) {
		if programs.IsAgent(path.Base(w)) {
			return true
		}
	}
	return false
}

// namesGuard reports a process name or pattern that matches the guard's.
func namesGuard(pattern string) bool {
	p := strings.ToLower(pattern)
	for _, n := range programs.GuardNames {
		if strings.Contains(p, n) || strings.Contains(n, strings.Trim(p, "^$.*")) && len(strings.Trim(p, "^$.*")) >= 4 {
			return true
		}
	}
	return false
}

// goBuildOntoGuard: go build -o PATH writes PATH (a directory when it ends
// in "/" or already holds a sentinel binary: the binary takes the package's
// name); go install writes GOBIN/<package name>.
func (j *judge) goBuildOntoGuard(x execution) {
	if len(x.args) == 0 || (x.args[0] != "build" && x.args[0] != "install") {
		return
	}
	o := programs.Parse(x.args[1:], programs.S("oCp", "o", "C", "p", "tags", "ldflags", "gcflags", "mod", "modfile", "overlay", "pkgdir", "toolexec"))
	out := o.Value('o', "o")
	pkgNames := map[string]bool{}
	for _, p := range o.Pos {
		pkgNames[path.Base(strings.TrimSuffix(p, "/..."))] = true
	}
	guardPkg := false
	for _, n := range programs.GuardNames {
		guardPkg = guardPkg || pkgNames[n]
	}
	if out == "" {
		if x.args[0] == "install" && guardPkg {
			j.add(RuleSentinelDisable, x.detail) // installs over the guard's binary on PATH
		}
		return
	}
	p, ok := j.resolve(out, x.e.Dir)
	if !ok {
		return
	}
	if j.isSentinelPath(p) {
		j.add(RuleSentinelDisable, x.detail)
		return
	}
	if strings.HasSuffix(out, "/") || j.aboveSentinel(p) {
		for _, n := range programs.GuardNames {
			if j.isSentinelPath(p+"/"+n) && (guardPkg || len(pkgNames) == 0) {
				j.add(RuleSentinelDisable, x.detail)
				return
			}
		}
	}
}
