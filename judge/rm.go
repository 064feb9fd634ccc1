package judge

import (
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleRmGitDir             = "RM-GIT-DIR"
	RuleRmSystem             = "RM-SYSTEM"
	RuleRmHome               = "RM-HOME"
	RuleRmOutsideProject     = "RM-OUTSIDE-PROJECT"
	RuleRmFileOutsideProject = "RM-FILE-OUTSIDE-PROJECT"
	RuleRmDynamicTarget      = "RM-DYNAMIC-TARGET"
	RuleRmProjectRoot        = "RM-PROJECT-ROOT"
	RuleFindDeleteOutside    = "FIND-DELETE-OUTSIDE"
)

var _ = rules(
	Rule{ID: RuleRmGitDir, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "deleting a .git directory destroys the repository's history",
		Alternative: "keep .git; remove only the files you mean to",
		Matches:     "`rm -rf .git` of the project, of its object store, refs, logs, HEAD or packed-refs; `find .git -delete`; `: > .git/HEAD`; `mv` of a `.git` directory (or its store) out of the directory it sits in (gitrefs.go)",
		Fire:        []string{"rm -rf .git", "mv .git /tmp/g", "mv .git/objects ~/o"},
		Pass:        []string{"rm -rf .github/old-workflows", "rm -rf build/.git-cache", "mv .gitignore .gitignore.bak", "mv .git .git-before-rebase"}},
	Rule{ID: RuleRmSystem, Class: ClassDestroyFiles, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "rm of /, a system directory or a system file (recursive, forced, or in /etc, /usr, /bin, /boot ...)",
		Alternative: "delete the specific project paths you mean, by name",
		Matches:     "recursive/forced rm of `/`, `/*`, a system dir; any rm of a file under `/etc`, `/usr`, `/bin`, `/boot`, ...",
		Fire:        []string{"rm -rf /", "rm -rf /usr/lib"},
		Pass:        []string{"rm -rf /tmp/build-cache", "rm -rf ./usr"}},
	Rule{ID: RuleRmHome, Class: ClassDestroyFiles, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "recursive or forced rm of the home directory or its dotfiles",
		Alternative: "delete the specific project paths you mean, by name",
		Matches:     "recursive/forced rm of `~`, `~/*`, a home dotfile/dot-dir",
		Fire:        []string{`rm -rf {~,}`, `rm -rf ~{,}`, `rm -rf {/tmp/x,~}`, "rm -rf ~", "rm -rf ~/.config", "rm -rf ~/.ssh"},
		Pass:        []string{`rm -rf build/{a,b}`, "rm -rf ~/proj/build", "ls ~", "rm -rf ~/.cache", "rm -rf ~/.npm", "rm -f ~/.zcompdump*"}},
	Rule{ID: RuleRmOutsideProject, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "recursive or forced rm of a path outside the project",
		Alternative: "work inside the project or a temp dir; ask the operator to remove it",
		Matches:     "recursive rm outside the project and temp dirs, or forced rm of a glob there (`rm -f` of one named file is RM-FILE-OUTSIDE-PROJECT); rm by another name (programs.RmBuiltin): `rimraf`, `del-cli`, `shx rm`, `cmake -E rm|remove_directory|remove`, also through a package runner (`npx shx rm -rf DIR`)",
		Fire: []string{"rm -rf /opt/app", "rm -rf ~/Documents", "rm -rf ~/Downloads", "cmake -E remove_directory ~/Documents", "npx shx rm -rf ~/Projects", "npx del-cli ~/Music",
			"julia -e 'run(`rm -rf /home/user/Documents`)'", `erl -noshell -eval 'os:cmd("rm -rf ~/Documents"), halt().'`, "nu -c 'rm -r ~/Documents'",
			`emacs --batch --eval '(delete-directory "~/Documents" t)'`, `mcp__desktop-commander__start_process {"command":"rm -rf ~/Documents"}`},
		Pass: []string{"rm -rf build", "rm -rf /tmp/x", "cmake -E remove_directory build", "npx shx rm -rf dist", "npx del-cli dist", "cmake -E copy a b", "rm -rf ~/.m2/repository/com/acme", "rm -rf ~/.nvm/versions/node/v14.21.3", "rm -rf ~/Downloads/old-installer.dmg",
			"julia -e 'run(`ls`)'", `erl -noshell -eval 'io:format("hi~n"), halt().'`, "nu -c 'ls | length'", `emacs --batch --eval '(message "hi")'`,
			`mcp__desktop-commander__start_process {"command":"npm test"}`}},
	Rule{ID: RuleRmFileOutsideProject, Class: ClassDestroyFiles, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "deleting a file outside the project",
		Alternative: "leave files outside the project to the operator",
		Matches:     "plain or forced (`-f`, no `-r`) rm of a named file outside the project",
		Fire:        []string{"rm /home/user/notes.txt", "rm -f ~/Downloads/report.pdf"},
		Pass:        []string{"rm notes.txt", "rm /tmp/notes.txt"}},
	Rule{ID: RuleRmDynamicTarget, Class: ClassDestroyFiles, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "recursive or forced rm of a path that is only known at run time",
		Alternative: "spell the path out, or check the variable is set and inside the project",
		Matches:     "recursive/forced rm of a run-time path (`$X`, `$(...)`, `xargs rm -rf` fed from anything but a listing inside the project)",
		Fire:        []string{`rm -rf "$DIR"`, `rm -r "$WORKDIR"/*`},
		Pass:        []string{`rm -rf build/"$X"`, `rm "$F"`}},
	Rule{ID: RuleRmProjectRoot, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "recursive rm of the whole project directory",
		Alternative: "delete the build outputs by name (build/, dist/, node_modules/)",
		Matches:     "`rm -r .`, `rm -rf *` at the project root, the project dir itself; `find .` deleting with no test that narrows what it finds (only `-type`, `-mindepth`, ...)",
		Fire:        []string{"rm -rf .", "rm -rf /home/user/proj", "find . -type f -delete", "find . -mindepth 1 -exec rm -rf {} +"},
		Pass:        []string{"rm -rf ./dist", "rm -f *.log", "find . -name '*.pyc' -delete", "find . -type d -empty -delete"}},
	Rule{ID: RuleFindDeleteOutside, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "find -delete/-exec rm starting outside the project, at / or in home",
		Alternative: "run find inside the project, first without -delete",
		Matches:     "`find ROOT -delete` / `-exec rm` with ROOT outside the project, `/` or home",
		Fire:        []string{"find / -name '*.log' -delete", "find ~ -type f -exec rm {} +"},
		Pass:        []string{"find . -name '*.pyc' -delete", "find / -name '*.log'", "find /var/tmp -name 'build-*' -exec rm -rf {} +"}},
)

// rm judges rm/unlink targets.
func (j *judge) rm(all []parse.Exec, i int, e *parse.Exec, args []string, detail string) {
	o := parseOpts(args, "")
	recursive := o.Has('r', "recursive") || o.Short['R'] || o.Has('d', "dir")
	forced := o.Has('f', "force")
	strong := recursive || forced
	if e.Name == "unlink" {
		strong = false
	}
	// operands with their static flag
	words := e.Argv[1:]
	var ops []parse.Word
	seenDash := false
	for _, w := range words {
		if !seenDash && w.Static && w.Value == "--" {
			seenDash = true
			continue
		}
		if !seenDash && w.Static && strings.HasPrefix(w.Value, "-") && len(w.Value) > 1 {
			continue
		}
		ops = append(ops, w)
	}
	if len(ops) == 0 && e.ExtraArgs && strong && j.feedsUntracked(all, i) {
		j.add(RuleGitCleanForce, detail+" (the untracked files git lists)") // git ls-files -o | xargs rm -f
	} else if len(ops) == 0 && e.ExtraArgs && strong && len(e.Feed) == 0 && !j.feedInside(all, i) {
		j.add(RuleRmDynamicTarget, detail)
	}
	for _, w := range ops {
		j.rmTarget(e, w, recursive, strong, detail)
	}
}

// rmWords judges the operands of an rm-like tool (rimraf) that always
// deletes recursively.
func (j *judge) rmWords(e *parse.Exec, words []parse.Word, recursive, strong bool, detail string) {
	for _, w := range words {
		if w.Static && strings.HasPrefix(w.Value, "-") {
			continue
		}
		j.rmTarget(e, w, recursive, strong, detail)
	}
}

func (j *judge) rmTarget(e *parse.Exec, w parse.Word, recursive, strong bool, detail string) {
	p, ok := j.staticPath(e, w)
	if !ok {
		if strong {
			j.add(RuleRmDynamicTarget, detail)
		}
		return
	}
	j.rmAbs(e, p, recursive, strong, detail)
	// rm -rf link/ (a trailing slash) deletes what the link leads to
	follow := strings.HasSuffix(w.Value, "/") || strings.HasSuffix(w.Value, "/.")
	if r := j.viaLinks(p, follow, detail); r != "" {
		j.rmAbs(e, r, recursive, strong, detail+" (through a link: "+r+")")
	}
}

// rmAbs judges the deletion of the absolute path p as it is named.
func (j *judge) rmAbs(e *parse.Exec, p string, recursive, strong bool, detail string) {
	// oversight, credentials, protected paths first
	before := len(j.hits)
	j.writeLex(p, kindDelete, detail)
	tampered := false
	for _, h := range j.hits[before:] {
		if h.Verdict == Deny {
			tampered = true
		}
	}
	if remoteDelete(e) {
		j.rmRemote(p, strong, tampered, detail)
		return
	}
	if j.cache(p) {
		return // rm -rf ~/.cache/pip: rebuilt on demand
	}
	switch j.locate(p) {
	case locSystem:
		if strong {
			j.add(RuleRmSystem, detail)
		} else {
			j.add(RuleRmFileOutsideProject, detail)
		}
	case locHome:
		if strong {
			j.add(RuleRmHome, detail)
		} else if strings.ContainsAny(p, "*?[") {
			j.add(RuleRmFileOutsideProject, detail) // rm ~/*: every file at home's top level
		}
	case locHomeDot:
		if strong {
			j.add(RuleRmHome, detail)
		} else if !tampered {
			j.add(RuleRmFileOutsideProject, detail)
		}
	case locOutside:
		if tampered {
			return
		}
		if j.isSystemFile(p) {
			j.add(RuleRmSystem, detail) // rm /etc/passwd
			return
		}
		// rm -f without -r removes one named file at most (a directory
		// fails): the deletion of a file, unless a glob names many
		if recursive || strong && strings.ContainsAny(p, "*?[") {
			j.add(RuleRmOutsideProject, detail)
		} else {
			j.add(RuleRmFileOutsideProject, detail)
		}
	case locProjectRoot:
		if recursive {
			j.add(RuleRmProjectRoot, detail)
		}
	case locGitDir:
		if strong {
			j.add(RuleRmGitDir, detail)
		}
	}
}

// staticPath resolves a word to an absolute path when that can be known:
// static words, and dynamic words whose static prefix already names a
// directory inside the project or a temp dir ("build/$X", "$TMPDIR/x").
func (j *judge) staticPath(e *parse.Exec, w parse.Word) (string, bool) {
	v, dir := w.Value, e.Dir
	placeholder := strings.Contains(v, "{}") || strings.Contains(v, "{.}") || strings.Contains(v, "{/}")
	if placeholder && (slices.Contains(e.Wrappers, "find -exec") || len(e.Feed) > 0) {
		placeholder = false // the roots are judged by FIND-DELETE-OUTSIDE and with the Feed (fanout.go)
	}
	if w.Static || !strings.ContainsAny(v, "$`") && !placeholder {
		// static, or only a glob: judge the fixed part (globBase). A
		// wrapper's placeholder (parallel rm -rf {} ::: ~/.cache, xargs -I{})
		// is not a path. (An interpreter's expression is the interpreter
		// reader's to resolve: interp/.)
		return j.resolve(v, dir)
	}
	if p, ok := mktempPath(v, e.Assigns); ok {
		return p, true
	}
	for _, t := range []string{"$TMPDIR/", "${TMPDIR}/", "${TMPDIR:-/tmp}/"} {
		if strings.HasPrefix(v, t) && len(v) > len(t) && !strings.Contains(v[len(t):], "..") {
			return "/tmp/" + strings.Trim(v[len(t):], "/$"), true
		}
	}
	k := strings.IndexAny(v, "$`")
	if k <= 0 {
		return "", false
	}
	prefix := v[:k]
	slash := strings.LastIndexByte(prefix, '/')
	if slash <= 0 || strings.Contains(v[k:], "..") {
		return "", false
	}
	p, ok := j.resolve(prefix[:slash], dir)
	if !ok || j.locate(p) != locInside {
		return "", false
	}
	// the dynamic part stays below p: judge as p/<something>
	return p + "/_", true
}

// mktempPath resolves "$tmp" (or "$tmp/x") where tmp was set from
// $(mktemp ...) earlier in the command: a fresh temporary path.
func mktempPath(v string, assigns []parse.Assign) (string, bool) {
	name := strings.TrimPrefix(v, "$")
	name = strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}")
	rest := ""
	if k := strings.IndexByte(name, '/'); k >= 0 {
		name, rest = strings.TrimSuffix(name[:k], "}"), name[k:]
	}
	if !strings.HasPrefix(v, "$") || strings.Contains(rest, "..") || strings.ContainsAny(rest, "$`") {
		return "", false
	}
	for i := len(assigns) - 1; i >= 0; i-- {
		a := assigns[i]
		if a.Name == name {
			if strings.HasPrefix(a.Value.Value, "$(mktemp") || strings.HasPrefix(a.Value.Value, "`mktemp") {
				return "/tmp/_mktemp" + rest, true
			}
			return "", false
		}
	}
	return "", false
}

// feedsUntracked reports an execution fed by a git listing of the
// untracked files (git ls-files -o | xargs rm -f: git clean -f).
func (j *judge) feedsUntracked(all []parse.Exec, i int) bool {
	e := &all[i]
	for k := range all {
		f := &all[k]
		if e.Pipeline != 0 && f.Pipeline == e.Pipeline && f.Stage == e.Stage-1 && programs.Canon(f.Name) == "git" {
			return programs.GitListsUntracked(wordValues(f.Argv[1:]))
		}
	}
	return false
}

// feedInside reports whether the execution's input comes from a listing
// (find, ls, git ls-files, fd) rooted inside the project.
func (j *judge) feedInside(all []parse.Exec, i int) bool {
	e := &all[i]
	if e.Pipeline == 0 || e.Stage == 0 {
		return false
	}
	for k := range all {
		f := &all[k]
		if f.Pipeline != e.Pipeline || f.Stage != e.Stage-1 {
			continue
		}
		// listers of paths under their operands or the directory (not
		// locate: it lists the whole machine); the model's names, so fdfind,
		// eza and rg are theirs
		fp := programs.Lookup(f.Name)
		switch canon(fp, f.Name) {
		case "find", "fd", "ls", "git", "grep":
		default:
			return false
		}
		roots := findRoots(wordValues(f.Argv[1:]))
		if fp.Name != "find" {
			roots = nil
			for _, w := range f.Argv[1:] {
				if w.Static && !strings.HasPrefix(w.Value, "-") && strings.Contains(w.Value, "/") {
					roots = append(roots, w.Value)
				}
			}
		}
		for _, r := range roots {
			p, ok := j.resolve(r, f.Dir)
			if !ok {
				return false
			}
			if l := j.locate(p); l != locInside && l != locProjectRoot {
				return false
			}
		}
		return f.Dir != "" || len(roots) > 0
	}
	return false
}

// findRoots are find's starting points ("." when none).
func findRoots(args []string) []string { return programs.FindStarts(args) }

func (j *judge) find(e *parse.Exec, args []string, detail string) {
	destructive := false
	for k, a := range args {
		if a == "-delete" {
			destructive = true
		}
		if programs.FindRuns(a) && k+1 < len(args) {
			n := args[k+1]
			if s := strings.LastIndexByte(n, '/'); s >= 0 {
				n = n[s+1:]
			}
			if programs.Is(n, programs.Deleter) {
				destructive = true
			}
		}
	}
	if !destructive {
		return
	}
	for _, r := range findRoots(args) {
		p, ok := j.resolve(r, e.Dir)
		if !ok {
			j.add(RuleRmDynamicTarget, detail)
			continue
		}
		j.findRoot(e, p, args, detail)
		if r := j.viaLinks(p, true, detail); r != "" {
			j.findRoot(e, r, args, detail+" (through a link: "+r+")") // find follows a root that is a link
		}
	}
}

// findRoot judges a deleting find rooted at the absolute path p.
func (j *judge) findRoot(e *parse.Exec, p string, args []string, detail string) {
	if j.cache(p) {
		// find ~/.cache -atime +90 -delete: rebuilt on demand (unless the
		// guard keeps its state there)
		if j.isSentinelPath(p) || j.aboveSentinel(p) {
			j.writeLex(p, kindDelete, detail)
		}
		return
	}
	j.writeLex(p, kindDelete, detail)
	if remoteDelete(e) {
		j.findRemote(p, detail)
		return
	}
	if j.scratch(p) {
		return // find /tmp -name 'build-*' -delete: scratch space, like rm -rf /tmp/*
	}
	switch j.locate(p) {
	case locSystem, locHome, locHomeDot, locOutside:
		j.add(RuleFindDeleteOutside, detail)
	case locProjectRoot:
		if !programs.FindSelects(args) {
			j.add(RuleRmProjectRoot, detail) // everything in the project, like rm -rf ./*
		}
	case locGitDir:
		if !programs.FindSelects(args) {
			j.add(RuleRmGitDir, detail) // find .git -delete
		}
	}
}
