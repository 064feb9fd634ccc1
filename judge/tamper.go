package judge

import (
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
	Reason:      "switching the guard off: killing, uninstalling or rebuilding the sentinel, or grading its own flags",
	Alternative: "the sentinel is the operator's; ask them",
	Matches:     "`pkill`/`killall` of a sentinel process, `sentinel uninstall`/`install`/`keygen`/`grade`, `go build -o`/`go install` onto a sentinel binary or its directory",
	Fire: []string{"pkill -f sentinel", "killall sentinel-hook", "sentinel uninstall", "sentinel grade 12 false",
		"go build -o ~/.local/bin/ ./cmd/sentinel-hook", "go install ./cmd/sentinel-hook"},
	Pass: []string{"pkill -f 'node server.js'", "sentinel log", "sentinel verify", "sentinel check -- ls",
		"go build -o ./bin/app ./cmd/app", "go install ./cmd/mytool", "pgrep -f sentinel"},
})

// guardCommands are the sentinel subcommands only the operator runs: they
// change what guards the session or record a verdict on it.
var guardCommands = map[string]bool{"uninstall": true, "install": true, "keygen": true, "grade": true}

var _ = onExec(func(j *judge, x execution) {
	p := programs.Lookup(x.e.Name)
	switch canon(p, x.e.Name) {
	case "pkill": // killall, skill, slay
		for _, a := range p.Parse(x.args).Pos {
			if namesGuard(a) {
				j.add(RuleSentinelDisable, x.detail)
				return
			}
		}
	case "sentinel":
		if o := programs.Operands(x.args); len(o) > 0 && guardCommands[o[0]] {
			j.add(RuleSentinelDisable, x.detail)
		}
	case "go":
		j.goBuildOntoGuard(x)
	}
})

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
