package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleSentinelReach = "SENTINEL-REACH"
)

var _ = rules(
	Rule{ID: RuleSentinelReach, Class: ClassOversight, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "code or a bulk file tool reaches the sentinel's signing key, register or configuration",
		Alternative: "leave the sentinel's files alone; the operator manages them with the sentinel command",
		Matches: "an interpreter (`python3 -c`, `node -e`, `perl -e`, a heredoc, ...) or database client whose code or arguments mention " +
			"the sentinel's config or state directory or its files; `find` with `-exec`/`-delete` over them or a directory holding them; " +
			"`tar`/`zip`/`rsync`/`cp`/`scp`/`7z`/`cpio` of them or of a directory holding them; `sentinel gate` (checking or accepting a configuration is the operator's)",
		Fire: []string{
			`perl -e 'open(F, "$ENV{HOME}/.config/sentinel/signing.key"); print <F>'`,
			`python3 -c "import sqlite3; sqlite3.connect('/home/user/.local/state/sentinel/register.db').execute('delete from entries')"`,
			"find ~/.config -name '*.key' -exec cat {} +",
			"find / -name signing.key -exec cat {} ;",
			"zip -r /tmp/cfg.zip ~/.config",
			"tar czf /tmp/home.tgz /home/user",
			"rsync -a ~/.local/state/ /tmp/st/",
			"sentinel gate accept",
		},
		Pass: []string{
			`python3 -c "print('sentinel')"`,
			`python3 -c "print(open('README.md').read())"`,
			"find . -name '*.go' -exec gofmt -l {} +",
			"zip -r /tmp/src.zip src",
			"tar czf /tmp/src.tgz ./src",
			"rsync -a ./ /tmp/proj-copy/",
			"cp -r ~/.config/nvim /tmp/nvim-backup",
			"cp notes.txt ~",
			"sentinel verify --allow-unsealed",
			"find ~/.config/sentinel -name '*.toml'",
		}},
)

// sentinelNames are the file names of the sentinel's own files: together
// with the word "sentinel" in code they name them, however the path is built.
var sentinelNames = []string{"signing.key", "register.db", "seal.toml", "seal.lock", "config.toml", ".config", "state"}

var _ = onExec(func(j *judge, x execution) {
	if x.e.Remote {
		return // another machine's files
	}
	name := x.e.Name
	p := programs.Lookup(name)
	switch {
	case name == "sentinel" && len(x.args) > 0 && x.args[0] == "gate":
		// Only the operator checks or accepts a configuration.
		j.reachHit(x.detail)
	case p.Is(programs.Interpreter) || p.Is(programs.Database):
		// Until interpreter code is parsed (interp/), any mention is enough.
		for _, a := range x.args {
			if j.mentionsSentinel(a) {
				j.reachHit(x.detail)
				return
			}
		}
		// Code on stdin (a heredoc, a here-string, a pipe) is not in the
		// arguments: the whole command stands for it.
		if p.Is(programs.Interpreter) && (onlyOptions(x.args) || x.e.Stage > 0) && j.mentionsSentinel(j.source) {
			j.reachHit(x.detail)
			return
		}
	case name == "find":
		act := false
		for _, a := range x.args {
			act = act || programs.FindActs(a)
		}
		if !act {
			return
		}
		roots := 0
		for _, a := range x.args {
			if j.mentionsSentinel(a) || sentinelFileName(a) {
				j.reachHit(x.detail)
				return
			}
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break // the expression begins: no more roots
			}
			roots++
			if j.holdsSentinel(a, x.e.Dir) {
				j.reachHit(x.detail)
				return
			}
		}
		if roots == 0 && j.holdsSentinel(".", x.e.Dir) {
			j.reachHit(x.detail)
		}
	case p.Is(programs.Archiver):
		// Archivers pack, copy or sync whole trees: pointed at a directory
		// that holds the key or the register, they carry them out.
		pos := programs.Operands(x.args)
		// A copy's last operand is where it goes: copying into a directory
		// that holds the sentinel's (cp x ~) takes nothing of it.
		copier := p.Is(programs.Copier)
		dest := ""
		if copier && len(pos) > 1 {
			dest = pos[len(pos)-1]
		}
		for i, a := range pos {
			if _, path, ok := strings.Cut(a, ":"); ok && strings.Contains(a[:len(a)-len(path)-1], "@") {
				a = path // user@host:path
			}
			holds := j.holdsSentinel(a, x.e.Dir)
			if copier && i == len(pos)-1 && dest != "" {
				holds = j.insideSentinel(a, x.e.Dir)
			}
			if holds || j.mentionsSentinel(a) {
				j.reachHit(x.detail)
				return
			}
		}
	}
})

// reachHit notes an execution that reaches the sentinel's files; the hit
// is added by reachFallback, once the whole command is judged.
func (j *judge) reachHit(detail string) {
	if j.reach == "" {
		j.reach = detail
	}
}

// reachFallback adds SENTINEL-REACH when nothing more precise denied the
// command: a rule that read the code (SENTINEL-TAMPER on a parsed
// os.remove, FIND-DELETE-OUTSIDE) names the danger better.
func (j *judge) reachFallback() {
	if j.reach == "" {
		return
	}
	for _, h := range j.hits {
		if h.Verdict == Deny {
			return
		}
	}
	j.add(RuleSentinelReach, j.reach)
}

// sentinelDirs are the directories of the sentinel's key, register and
// configuration (not its binaries).
func (j *judge) sentinelDirs() []string {
	var out []string
	for _, s := range j.sentinel {
		if strings.HasSuffix(s, "/sentinel") || under(s, j.home+"/.config") || under(s, j.home+"/.local") {
			out = append(out, s)
		}
	}
	return append(out, j.keyDirs...)
}

// holdsSentinel reports whether the path arg (against dir) is, is inside,
// or contains a sentinel directory.
func (j *judge) holdsSentinel(arg, dir string) bool {
	p, ok := j.resolve(arg, dir)
	if !ok {
		return false
	}
	if base, glob := globBase(p); glob {
		p = strings.TrimSuffix(base, "/*")
	}
	for _, s := range j.sentinelDirs() {
		if under(p, s) || under(s, p) {
			return true
		}
	}
	return false
}

// insideSentinel reports whether the path arg is a sentinel path or
// inside one.
func (j *judge) insideSentinel(arg, dir string) bool {
	p, ok := j.resolve(arg, dir)
	return ok && j.isSentinelPath(p)
}

// mentionsSentinel reports text (code, an argument) that names a sentinel
// directory: absolute, from ~ or $HOME, by its home-relative tail
// (".config/sentinel"), or as "sentinel" with one of its file or directory
// names (a path joined in code).
func (j *judge) mentionsSentinel(text string) bool {
	if !strings.Contains(text, "sentinel") {
		return false
	}
	for _, s := range j.sentinelDirs() {
		if strings.Contains(text, s) {
			return true
		}
		if j.home != "" && strictlyUnder(s, j.home) {
			tail := s[len(j.home)+1:]
			if strings.Contains(text, tail) {
				return true
			}
		}
	}
	for _, n := range sentinelNames {
		if strings.Contains(text, n) {
			return true
		}
	}
	return false
}

func sentinelFileName(a string) bool {
	for _, n := range sentinelNames[:4] {
		if strings.Contains(a, n) {
			return true
		}
	}
	return false
}
