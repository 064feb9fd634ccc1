package judge

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
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
			"the sentinel's config or state directory or its files, whether by name, by a glob that can match them (`~/.local/state/*/gate.json`), " +
			"or by one of its own file names (`gate.json`, `register.db`, ...) in a path built from the home directory; `find` with `-exec`/`-delete` over them or a directory holding them; " +
			"`tar`/`zip`/`rsync`/`cp`/`scp`/`7z`/`cpio` of them or of a directory holding them; a deleter or emptier fed by `xargs` from a pipeline that walks a directory holding them (`rg --files ~/.local | grep register | xargs truncate -s 0`); `sentinel gate` (checking or accepting a configuration is the operator's)",
		Fire: []string{
			`perl -e 'open(F, "$ENV{HOME}/.config/sentinel/signing.key"); print <F>'`,
			`python3 -c "import sqlite3; sqlite3.connect('/home/user/.local/state/sentinel/register.db').execute('delete from entries')"`,
			"find ~/.config -name '*.key' -exec cat {} +",
			"find / -name signing.key -exec cat {} ;",
			"zip -r /tmp/cfg.zip ~/.config",
			"tar czf /tmp/home.tgz /home/user",
			"rsync -a ~/.local/state/ /tmp/st/",
			"sentinel gate accept",
			"rg --files --hidden ~/.local | grep register | xargs truncate -s 0",
			`python3 -c "import glob,json; p=glob.glob('/home/user/.local/state/*/gate.json')[0]; s=json.load(open(p)); s['status']='accepted'; json.dump(s, open(p,'w'))"`,
			`python3 -c "import glob,os; [os.remove(p) for p in glob.glob(os.path.expanduser('~/.local/st*/**/register.db'), recursive=True)]"`,
			`python3 -c "import os; print(open(os.path.join(os.environ['HOME'], '.local', 'state', 'sen'+'tinel', 'register.db'),'rb').read())"`,
			`node -e "console.log(require('fs').readFileSync(require('os').homedir() + '/.config/' + 'sen' + 'tinel/must-keep.txt', 'utf8'))"`,
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
			"rg --files src | grep tmp | xargs rm",
			"find ~/.config/sentinel -name '*.toml'",
			`python3 -c "import glob; print(glob.glob('/home/user/proj/*/gate.json'))"`,
			`python3 -c "import json; print(json.load(open('gate.json'))['status'])"`,
			`python3 -c "import glob,os; print(glob.glob(os.path.expanduser('~/.config/nvim/*.lua')))"`,
			`python3 -c "import os; print(os.path.join(os.environ['HOME'], 'notes.txt'))"`,
			`python3 -c "import os; print(open(os.path.expanduser('~/proj/gate.json')).read())"`,
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
			// a path operand is judged where it leads (sqlite3 st/register.db
			// with st a link to the state directory)
			if j.mentionsSentinel(a) || !strings.HasPrefix(a, "-") && strings.Contains(a, "/") && j.insideSentinel(a, x.e.Dir) {
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
			if j.holdsSentinel(a, x.e.Dir) && !j.findSpares(x.args, a, x.e.Dir) {
				j.reachHit(x.detail)
				return
			}
		}
		if roots == 0 && j.holdsSentinel(".", x.e.Dir) && !j.findSpares(x.args, ".", x.e.Dir) {
			j.reachHit(x.detail)
		}
	case p.Is(programs.Archiver):
		// Archivers pack, copy or sync whole trees: pointed at a directory
		// that holds the key or the register, they carry them out.
		pos := programs.Operands(x.args)
		if p.Name == "tar" {
			// tar's members, from -C's directory (tar czf x.tgz -C ~ .config/nvim)
			dir, members := programs.TarMembers(x.args)
			pos = pos[:0]
			for _, m := range members {
				if dir != "" && !strings.HasPrefix(m, "/") && !strings.HasPrefix(m, "~") {
					m = strings.TrimSuffix(dir, "/") + "/" + m
				}
				pos = append(pos, m)
			}
		}
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

// A deleter or emptier fed names by xargs from a pipeline whose earlier
// stage walks a directory holding the sentinel's (rg --files ~/.local |
// grep register | xargs truncate -s 0; du -a ~/.local | awk ... | xargs
// rm): the names are computed, the directory is on the line.
var _ = onExec(func(j *judge, x execution) {
	e := x.e
	if e.Remote || !e.ExtraArgs || e.Pipeline == 0 {
		return
	}
	p := programs.Lookup(e.Name)
	if !p.Is(programs.Deleter) && !(p.Is(programs.Writer) && p.Is(programs.NonReader) && !p.Is(programs.Permissions)) {
		return
	}
	for k := range x.all {
		f := &x.all[k]
		if f.Pipeline != e.Pipeline || f.Stage >= e.Stage || len(f.Argv) == 0 {
			continue
		}
		for _, w := range f.Argv[1:] {
			if !w.Static || strings.HasPrefix(w.Value, "-") || !strings.Contains(w.Value, "/") && !strings.HasPrefix(w.Value, "~") {
				continue
			}
			if j.holdsSentinel(w.Value, f.Dir) && !(programs.Canon(f.Name) == "find" && j.findSpares(wordValues(f.Argv[1:]), w.Value, f.Dir)) {
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
	for _, q := range []string{p, j.viaLinks(p, true, "")} {
		for _, s := range j.sentinelDirs() {
			if q != "" && (under(q, s) || under(s, q)) {
				return true
			}
		}
	}
	return false
}

// insideSentinel reports whether the path arg is a sentinel path or
// inside one.
func (j *judge) insideSentinel(arg, dir string) bool {
	p, ok := j.resolve(arg, dir)
	if !ok {
		return false
	}
	r := j.viaLinks(p, true, "")
	return j.isSentinelPath(p) || r != "" && j.isSentinelPath(r)
}

// mentionsSentinel reports text (code, an argument) that names a sentinel
// directory: absolute, from ~ or $HOME, by its home-relative tail
// (".config/sentinel"), or as "sentinel" with one of its file or directory
// names (a path joined in code).
func (j *judge) mentionsSentinel(text string) bool {
	if !strings.Contains(text, "sentinel") {
		// Without the word: a glob that can match the sentinel's
		// directories, or one of its own file names in a path built from
		// the home directory, reaches them all the same.
		return j.globReachesSentinel(text) || j.buildsSentinelPath(text)
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

// ownFiles are file names only the sentinel's directories hold: in code
// that also builds a path from the home directory, they name its files
// however the directory part is spelled ('sen' + 'tinel', a variable).
var ownFiles = []string{"gate.json", "register.db", "register.anchor", "journal.jsonl", "signing.key", "must-keep.txt", "seal.toml"}

// homeRefs are how code says "the home directory".
var homeRefs = []string{"~", "$HOME", "${HOME}", "'HOME'", `"HOME"`, "expanduser", "homedir", "Path.home", "Dir.home", "home()", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "getpwuid", "ENV{HOME}"}

// buildsSentinelPath reports code that names one of the sentinel's own
// files in a path it builds (a bare name or a fragment, not a whole path
// elsewhere) and refers to the home directory: a project's 'gate.json'
// or '/home/u/proj/gate.json' does not count.
func (j *judge) buildsSentinelPath(text string) bool {
	named := false
	for _, w := range strings.FieldsFunc(text, notPathChar) {
		for _, n := range ownFiles {
			if !strings.Contains(w, n) {
				continue
			}
			if p := j.expandHome(w); strings.HasPrefix(p, "/") && !strings.ContainsAny(p, "*?[") {
				if j.isSentinelPath(filepath.Clean(p)) {
					return true
				}
				continue // a whole path somewhere else
			}
			named = true
		}
	}
	if !named {
		return false
	}
	for _, h := range homeRefs {
		if strings.Contains(text, h) {
			return true
		}
	}
	return false
}

// globReachesSentinel reports a glob in text (a word with *, ? or [ and a
// slash) that can match a sentinel directory, a directory holding one, or
// a path inside one.
func (j *judge) globReachesSentinel(text string) bool {
	if !strings.ContainsAny(text, "*?[") {
		return false
	}
	for _, w := range strings.FieldsFunc(text, notPathChar) {
		if !strings.ContainsAny(w, "*?[") || !strings.Contains(w, "/") {
			continue
		}
		p := j.expandHome(w)
		if !strings.HasPrefix(p, "/") {
			continue // relative to a directory the code may change: not judged here
		}
		for _, s := range j.sentinelDirs() {
			if globMayMatch(strings.Split(strings.Trim(p, "/"), "/"), strings.Split(strings.Trim(s, "/"), "/")) {
				return true
			}
		}
	}
	return false
}

// notPathChar splits code into the words a path can be made of.
func notPathChar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	}
	return !strings.ContainsRune("/._-~$*?[]{}!", r)
}

// globMayMatch reports whether the pattern's segments can match the
// directory dir, one of its ancestors (the pattern names what holds it),
// or a path below it; "**" matches any number of segments. It is a table
// over (pattern segment, dir segment), so a pattern of many "**" costs its
// length times the directory's depth, never more.
func globMayMatch(pat, dir []string) bool {
	// ok[j]: the pattern's first i segments can match dir's first j.
	ok := make([]bool, len(dir)+1)
	ok[0] = true
	for _, p := range pat {
		if len(dir) > 0 && ok[len(dir)] {
			return true // dir matched with pattern left over: the rest is inside dir
		}
		next := make([]bool, len(dir)+1)
		for j := 0; j <= len(dir); j++ {
			switch {
			case p == "**":
				next[j] = ok[j] || (j > 0 && next[j-1])
			case j > 0 && ok[j-1]:
				m, err := path.Match(p, dir[j-1])
				next[j] = err == nil && m
			}
		}
		ok = next
	}
	for _, v := range ok {
		if v {
			return true // the pattern ended at dir or above it
		}
	}
	return false
}

// findSpares reports a find rooted at root (a directory holding the
// sentinel's) whose name tests can match none of the sentinel's
// directories on the way, nor its files, within -maxdepth: find ~/.config
// -name '*.json' -exec grep theme {} + never reaches ~/.config/sentinel's
// config.toml or signing.key. An alternative (-o), a negation or a path
// test may match anything.
func (j *judge) findSpares(args []string, root, dir string) bool {
	r, ok := j.resolve(root, dir)
	if !ok {
		return false
	}
	var pats []string
	icase := false
	depth := -1
	for i, a := range args {
		switch a {
		case "-name", "-iname":
			if i+1 >= len(args) {
				return false
			}
			pats = append(pats, args[i+1])
			icase = icase || a == "-iname"
		case "-maxdepth":
			if i+1 < len(args) {
				if n, err := strconv.Atoi(args[i+1]); err == nil {
					depth = n
				}
			}
		case "-o", "-or", "-not", "!", ",", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-samefile", "-inum":
			return false
		}
	}
	if len(pats) == 0 {
		return false
	}
	matches := func(name string) bool {
		for _, p := range pats {
			if icase {
				p, name = strings.ToLower(p), strings.ToLower(name)
			}
			if ok, err := filepath.Match(p, name); ok || err != nil {
				return true
			}
		}
		return false
	}
	for _, s := range j.sentinelDirs() {
		if under(r, s) {
			return false // rooted inside the sentinel's directory
		}
		if !strictlyUnder(s, r) {
			continue
		}
		comps := strings.Split(s[len(r)+1:], "/")
		for k, c := range comps {
			if depth >= 0 && k+1 > depth {
				break
			}
			if matches(c) {
				return false
			}
		}
		if depth >= 0 && len(comps)+1 > depth {
			continue
		}
		for _, n := range j.sentinelFiles(s) {
			if matches(n) {
				return false
			}
		}
	}
	return true
}

// Files the sentinel keeps in its configuration and state directories.
var (
	configFiles = []string{"config.toml", "signing.key", "signing.key.pub", "seal.toml", "seal.lock", "must-keep.txt"}
	stateFiles  = []string{"register.db", "register.db-wal", "register.db-shm", "register.db-journal", "register.anchor", "journal.jsonl", "gate.json", "hook.lock"}
)

// sentinelFiles are the names of the files in the sentinel directory s: the
// ones it keeps there, and (but in replay) what is there now.
func (j *judge) sentinelFiles(s string) []string {
	names := stateFiles
	if s == cleanAbs(j.env.ConfigDir) || strings.Contains(s, "/.config/") || strings.HasSuffix(s, ".key") {
		names = configFiles
	}
	if j.env.NoFiles {
		return names
	}
	if ents, err := os.ReadDir(s); err == nil {
		for i, e := range ents {
			if i == 256 {
				names = append(names, "*") // too many to list: any name may be there
				break
			}
			names = append(names, e.Name())
		}
	}
	return names
}
