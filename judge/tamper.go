package judge

import (
	"path"
	"regexp"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"

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
	Matches:     "`kill` (not -0) of `$PPID` (the agent) or its group, `pkill`/`killall -STOP` (or TSTP) of `node` (Claude Code), `pkill`/`killall` (any signal) of a sentinel or coding-agent process (a `-f` pattern read as the regular expression it is, against their command lines: `'bin/sent'`), `kill` of the pids `pgrep`/`pidof` find for one (`$(...)`, `| xargs kill`) or a loop over `/proc/*/cmdline` greps for, a throttler aimed at one (`cpulimit -e`, `prlimit --pid`, `renice`/`ionice -p`), `sentinel uninstall`/`install`/`keygen`/`grade`/`register reset|merge`/`protocol keep` and any sentinel subcommand not known to only read (log, verify, doctor, explain, check, replay, rules, ...), `go build -o`/`go install` onto a sentinel binary or its directory",
	Fire: []string{"pkill -f sentinel", "killall sentinel-hook", "killall -STOP sentinel-hook", "kill -STOP $(pgrep -f sentinel-hook)",
		"pgrep -f claude | xargs kill -9", "pkill -9 claude",
		"ps aux | awk '/sentinel/{print $2}' | xargs kill -STOP", "ps -ef | grep claude | awk '{print $2}' | xargs kill -9", "sentinel uninstall", "sentinel grade 12 false",
		"sentinel register reset --accept-loss", "sentinel register merge", "sentinel keys rotate",
		"go build -o ~/.local/bin/ ./cmd/sentinel-hook", "go install ./cmd/sentinel-hook",
		"pkill -STOP -f 'bin/sent'", "cpulimit -l 1 -e sentinel-hook -b", "renice -n 19 -p $(pgrep -f claude)",
		`for p in /proc/[0-9]*; do grep -qa sentinel "$p/cmdline" && kill -STOP "${p#/proc/}"; done`,
		"kill -STOP $PPID", "kill -9 -- -$(ps -o pgid= $PPID | tr -d ' ')", "killall -STOP node", "pkill -TSTP node"},
	Pass: []string{"pkill -f 'node server.js'", "kill -STOP $(pgrep -f 'node server.js')", "pgrep -f vite | xargs kill -9", "ps aux | awk '/vite/{print $2}' | xargs kill", "killall -HUP nginx", "sentinel log", "sentinel verify", "sentinel check -- ls",
		"sentinel doctor", "sentinel register status", "sentinel --version", "sentinel explain -- rm -rf /",
		"go build -o ./bin/app ./cmd/app", "go install ./cmd/mytool", "pgrep -f sentinel",
		"pkill -f bin", "cpulimit -l 50 -e ffmpeg -b", "renice -n 10 -p $(pgrep -f 'cargo build')",
		`for p in /proc/[0-9]*; do grep -qa vite "$p/cmdline" && kill "${p#/proc/}"; done`,
		"kill -0 $PPID", "ps -o pgid= $PPID", "killall -0 node", "pkill -STOP -f 'node server.js'", "kill -STOP $!"},
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
		if j.signalsGuard(x) || signalsAgentProcess(x, canon(p, x.e.Name)) {
			j.add(RuleSentinelDisable, x.detail)
		}
	case "sentinel":
		if guardCommand(x.args) {
			j.add(RuleSentinelDisable, x.detail)
		}
	case "go":
		j.goBuildOntoGuard(x)
	default:
		// cpulimit -e sentinel-hook, renice -n 19 -p $(pgrep -f claude)
		names, pids := programs.ThrottleTargets(x.e.Name, x.args)
		for _, n := range names {
			if namesGuardOrAgent(n) || namesGuardOrAgent(path.Base(n)) {
				j.add(RuleSentinelDisable, x.detail)
				return
			}
		}
		if pids && signalsNamed(x, namesGuardOrAgent) {
			j.add(RuleSentinelDisable, x.detail)
		}
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
	if programs.Canon(e.Name) == "pkill" {
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
	return procScan(x, match)
}

// procScan reports pids computed by reading the process table itself: a
// killer with a target computed at run time in a command where a pattern
// program looks for a matching name in /proc (for p in /proc/[0-9]*; do
// grep -qa sentinel "$p/cmdline" && kill -STOP "${p#/proc/}"; done).
func procScan(x execution, match func(string) bool) bool {
	dynamic := false
	for _, w := range x.e.Argv[1:] {
		dynamic = dynamic || !w.Static
	}
	if !dynamic {
		return false
	}
	for k := range x.all {
		f := &x.all[k]
		if k == x.i || len(f.Argv) == 0 || !programs.Is(f.Name, programs.Pattern) {
			continue
		}
		named, proc := false, false
		for _, w := range f.Argv[1:] {
			named = named || w.Static && match(w.Value)
			proc = proc || strings.Contains(w.Value, "/proc") || strings.Contains(w.Value, "cmdline") || strings.HasSuffix(w.Value, "/comm")
		}
		if named && proc {
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

// signalsAgentProcess reports a killer aimed at the agent's own process
// by what it is rather than by its name: the shell's parent ($PPID, or its
// process group through a substitution that reads it), which is the
// agent, with any signal but 0; every node process frozen (killall -STOP
// node), Claude Code among them.
func signalsAgentProcess(x execution, killer string) bool {
	sig := programs.KillSignal(x.args)
	if sig == "0" {
		return false
	}
	if killer == "kill" {
		for _, w := range x.e.Argv[1:] {
			if !w.Static && (strings.Contains(w.Value, "$PPID") || strings.Contains(w.Value, "${PPID}")) {
				return true
			}
		}
		return false
	}
	if !programs.StopsProcess(sig) {
		return false
	}
	for _, t := range programs.KillTargets(x.e.Name, x.args) {
		if t == "node" || t == "^node$" || path.Base(t) == "node" {
			return true
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
	return patternHitsName(pattern, agentCmdlines, "claude") || patternHitsName(pattern, agentCmdlines, "codex")
}

// namesGuard reports a process name or pattern that matches the guard's.
func namesGuard(pattern string) bool {
	p := strings.ToLower(pattern)
	for _, n := range programs.GuardNames {
		if strings.Contains(p, n) || strings.Contains(n, strings.Trim(p, "^$.*")) && len(strings.Trim(p, "^$.*")) >= 4 {
			return true
		}
	}
	return patternHitsName(pattern, guardCmdlines, "sentinel")
}

// guardCmdlines and agentCmdlines are command lines the guard's and the
// agents' processes run under: pkill -f and pgrep -f match their pattern,
// a regular expression, against the whole line.
var (
	guardCmdlines = []string{"/usr/local/bin/sentinel-hook post", "/home/u/.local/bin/sentinel-hook", "/home/u/go/bin/sentinel-hook",
		"/opt/sentinel/bin/sentinel"}
	agentCmdlines = []string{"/usr/local/bin/claude", "/home/u/.local/bin/claude --resume", "/home/u/.claude/local/claude",
		"/usr/local/bin/codex exec"}
)

// patternHitsName reports a pattern that, as a regular expression,
// matches one of the lines somewhere in the program's own name (from
// where name begins): 'bin/sent', 's.ntinel', '.*' reach it; 'bin' or
// 'local' match the directory only, which every other program shares.
func patternHitsName(pattern string, lines []string, name string) bool {
	if pattern == "" || len(pattern) > 256 {
		return false
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return false
	}
	for _, l := range lines {
		start := strings.LastIndex(l, "/"+name) + 1
		if start == 0 {
			continue // another program's line
		}
		for _, m := range re.FindAllStringIndex(l, -1) {
			if m[1] > start && m[1] > m[0] {
				return true
			}
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
