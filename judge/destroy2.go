package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Destruction in forms that are not rm (blind attack class 4, issue 19):
// a file system mounted over the home directory or a root hides all it
// held (MOUNT-OVER-ROOT); volume, pool and encryption tools destroy whole
// file systems (programs' Storage kind, judged as DISK-FORMAT in
// infra.go's destroys); killing init takes the machine (or the container)
// down with it, and so does the kernel's sysrq trigger.

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleMountOverRoot   = "MOUNT-OVER-ROOT"
	RuleRenameHomeFiles = "RENAME-HOME-FILES"
)

var _ = rules(
	Rule{ID: RuleMountOverRoot, Class: ClassDestroyFiles, Severity: SevCritical, Decision: Deny, Catastrophic: false,
		Reason:      "mounting a file system over the home directory, a home folder, a dot-directory, the project or a system directory hides everything it held; what is written there next goes elsewhere",
		Alternative: "mount on an empty directory of its own (/mnt/x, a directory in the project)",
		Matches:     "the mount point of `mount SRC DIR` (`-t tmpfs`, `--bind`, `-o`), `sshfs`, `bindfs`, `rclone mount`, `encfs`, ... is `~`, `~/Documents`, `~/.ssh`, the project root or a system directory (`/`, `/etc`, `/home`, `/usr`); not a remount, not /mnt, /media or /tmp themselves",
		Fire: []string{"mount -t tmpfs none ~", "mount -t tmpfs tmpfs ~/Documents", "mount --bind /tmp/empty ~/.ssh", "sshfs evil@host:/srv ~/Projects",
			"mount -t tmpfs none /etc", "mount -o bind /tmp/x /home"},
		Pass: []string{"mount", "mount | grep tmpfs", "mount -t tmpfs none /mnt/scratch", "mount /dev/sdb1 /mnt", "sshfs me@host:/srv ./remote",
			"mount -o remount,rw /", "mount -t tmpfs tmpfs /tmp"}},
	Rule{ID: RuleRenameHomeFiles, Class: ClassDestroyFiles, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "renaming every file of a home folder by an expression: names the operator and applications rely on change at once, and an expression that maps two names to one overwrites files",
		Alternative: "rename the files you mean, or run it with -n first and show the result",
		Matches:     "`rename`/`prename` (perl's EXPR FILES, util-linux's FROM TO FILES; programs' Renames) of a home folder, its entries (`~/Documents/*`) or a system directory; not with `-n`; `mv` of each entry after itself (`for f in ~/Documents/*; do mv \"$f\" \"$f.locked\"; done`)",
		Fire:        []string{"rename 's/$/.bak/' ~/Documents/*", "rename .jpg .old ~/Pictures/*", "prename -f 'y/a-z/A-Z/' ~/Desktop/*", `for f in ~/Documents/*; do mv "$f" "$f.locked"; done`},
		Pass:        []string{"rename 's/$/.bak/' ./logs/*", "rename -n 's/$/.bak/' ~/Documents/*", "rename .jpeg .jpg ~/Downloads/shots/*.jpeg"}},
)

// mountPoints are the system directories made to be mounted on: a mount
// there hides nothing the system keeps.
var mountPoints = map[string]bool{"/mnt": true, "/media": true, "/tmp": true, "/var/tmp": true, "/private/tmp": true,
	"/Volumes": true, "/run": true, "/proc": true, "/sys": true, "/dev": true}

// localProgram is the model's entry for an execution that runs here, as
// written: nil for one inferred from interpreter code, one on another
// machine, or a program the model does not know.
func localProgram(x execution) *programs.Program {
	if x.e.Synthetic || x.e.Remote {
		return nil
	}
	return programs.Lookup(x.e.Name)
}

var _ = onExec(func(j *judge, x execution) {
	e, p := x.e, localProgram(x)
	if p == nil {
		return
	}
	if p.Renames != nil {
		j.renamesRoots(x, p)
	}
	if p.Zeroes != nil {
		j.writesTo(e, p.Zeroes(x.args), kindEmpty, x.detail) // fallocate -p: a home file's content gone
	}
	if p.MountsOn != nil {
		if dir := p.MountsOn(x.args); dir != "" {
			if d, ok := j.resolve(dir, e.Dir); ok {
				switch {
				case j.mountHides(d):
					j.add(RuleMountOverRoot, x.detail)
				case j.isSentinelPath(d) || j.aboveSentinel(d):
					// mount --bind /bin/true ~/.local/bin/sentinel-hook: the
					// hook's path now opens something else
					j.add(RuleSentinelTamper, x.detail)
				case j.isAgentSettings(d):
					j.add(RuleClaudeSettingsEdit, x.detail)
				}
			}
		}
	}
	switch p.Name {
	case "kill", "pkill": // killall: init by pid 1, by name, or by the pids a finder prints for it
		if !signalHarmless(x.args) && (p.Name == "kill" && contains(programs.KillTargets("kill", x.args), "1") || signalsNamed(x, namesInit)) {
			j.add(RuleSysKillAll, x.detail)
		}
	}
})

// mountHides reports a mount point whose content matters: home, a home
// folder or dot-directory, the project (or its .git), a system directory
// that is not made to be mounted on.
func (j *judge) mountHides(d string) bool {
	d = strings.TrimSuffix(d, "/")
	if d == "" {
		d = "/"
	}
	switch j.locate(d) {
	case locHome, locHomeDot, locProjectRoot, locGitDir:
		return true
	case locSystem:
		return !mountPoints[d]
	}
	return j.homeFolder(d)
}

// signalHarmless reports a killer told signal 0, which only checks that
// the process exists (kill -0 1), or HUP, which makes init reload its
// configuration (kill -HUP 1, kill -1 1).
func signalHarmless(args []string) bool {
	sig := ""
	switch {
	case len(args) > 1 && (args[0] == "-s" || args[0] == "-n" || args[0] == "--signal"):
		sig = args[1]
	case len(args) > 0 && strings.HasPrefix(args[0], "--signal="):
		sig = strings.TrimPrefix(args[0], "--signal=")
	case len(args) > 0 && strings.HasPrefix(args[0], "-"):
		sig = args[0][1:] // -9, -HUP, -SIGKILL (kill's signal comes first)
	}
	sig = strings.TrimPrefix(strings.ToUpper(sig), "SIG")
	return sig == "0" || sig == "HUP" || sig == "1"
}

// namesInit: process 1's names (init, systemd, launchd).
func namesInit(name string) bool { return name == "init" || name == "systemd" || name == "launchd" }

// kernelTrigger judges a write to the kernel's control files: the sysrq
// trigger crashes, reboots or powers off the machine at once (echo b >
// /proc/sysrq-trigger); /proc/sys and /sys change the running kernel.
// It reports whether p was one.
func (j *judge) kernelTrigger(p string, kind writeKind, detail string) bool {
	if kind == kindDelete || kind == kindChmod {
		return false
	}
	switch {
	case p == "/proc/sysrq-trigger":
		j.add(RuleSysShutdown, detail)
	case strictlyUnder(p, "/proc/sys") || strictlyUnder(p, "/sys"):
		j.add(RuleSysFileWrite, detail)
	default:
		return false
	}
	return true
}

// globTarget reports a redirect target that is a glob and nothing else
// unknown: bash expands it (one match, or the word itself), and a loop's
// variable bound to a glob is written so (`for f in ~/Documents/*; do : >
// "$f"; done`, parse/globvar.go): a write to what it matches.
func globTarget(v string) bool {
	return strings.ContainsAny(v, "*?[") && !strings.ContainsAny(v, "$`")
}

// hiddenInHome reports a place in a dot-directory of home (~/.local,
// ~/.Trash): a folder moved there is out of the operator's sight.
func (j *judge) hiddenInHome(d string) bool {
	rest, ok := strings.CutPrefix(d, j.home+"/")
	return ok && j.home != "" && strings.HasPrefix(rest, ".")
}

// renamesRoots judges a renamer's operands (programs' Renames: rename,
// prename): a home folder or all its entries renamed in place.
func (j *judge) renamesRoots(x execution, p *programs.Program) {
	for _, raw := range p.Renames(x.args) {
		if s, ok := j.resolve(raw, x.e.Dir); ok && j.rootLike(s) {
			j.add(RuleRenameHomeFiles, x.detail)
			return
		}
	}
}
