package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Git work is discarded by more than the porcelain verbs git.go lists
// (blind attack class 8): plumbing that overwrites the working tree
// (checkout-index -f), ref moves that drop commits from a branch (branch
// -f, update-ref, switch -C, checkout -B, reset --keep, symbolic-ref HEAD),
// removing every tracked file with its local changes (git rm -rf .,
// submodule deinit -f), and making the next gc drop what only the reflog
// holds (gc.reflogExpire=now, gc.pruneExpire=now). Deleting the object
// store, refs or logs piecemeal is RM-GIT-DIR (pathrules.go: gitStore).

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleGitRefMove           = "GIT-REF-MOVE"
	RuleGitRmForce           = "GIT-RM-FORCE"
	RuleGitWorktreeOverwrite = "GIT-WORKTREE-OVERWRITE"
	RuleVcsDiscard           = "VCS-DISCARD"
)

var _ = rules(
	Rule{ID: RuleGitRefMove, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "moving a branch by force drops its commits from it (they survive only in the reflog)",
		Alternative: "create a new branch at the target instead; keep the old one",
		Matches:     "a rebase whose todo editor drops commits (`GIT_SEQUENCE_EDITOR=\"sed -i 's/^pick/drop/'\"`, `-c sequence.editor=...`: programs.SequenceDrops); a ref file written whole (a Write of `.git/refs/heads/X`, `.git/HEAD`, `.git/packed-refs`); `branch -f`, `update-ref refs/heads/X`, `switch -C`, `checkout -B` of the main branch (main, master, trunk, prod) or to a relative target; `reset --keep`/`--merge` to a relative revision; `symbolic-ref HEAD REF`; `fetch`/`pull` of a forced refspec into such a local branch (`git fetch . +HEAD~9:main`), `update-ref --stdin` update lines; `branch -M`/`-C` (`-m`/`-c --force`) onto a branch that exists and is not the current one (read from the repository; the main branches when it cannot be read) (gitrefs.go)",
		Fire: []string{"git branch -f main HEAD~5", "git update-ref refs/heads/main HEAD~5", "git switch -C main origin/main", "git checkout -B main origin/main", "git reset --keep HEAD~20",
			"git fetch . +HEAD~9:refs/heads/main", "git branch -M main", "git branch -c -f wip master",
			`GIT_SEQUENCE_EDITOR="sed -i '/^pick/d'" git rebase -i HEAD~3`, `git -c sequence.editor="sed -i 's/^pick/d/'" rebase -i main`},
		Pass: []string{"git branch -f feature HEAD", "git update-ref refs/heads/tmp HEAD", "git switch -c feature/x", "git checkout -b feature/x", "git reset --soft HEAD~1",
			"git fetch origin +refs/heads/*:refs/remotes/origin/*", "git fetch origin main:main", "git branch -m feature", "git branch -M feature/old feature/new",
			"GIT_SEQUENCE_EDITOR=: git rebase -i --autosquash main", `git -c sequence.editor="sed -i 's/^pick/fixup/'" rebase -i HEAD~2`}},
	Rule{ID: RuleGitWorktreeOverwrite, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "the working tree's uncommitted changes are overwritten with a committed version or reversed, as git checkout -- PATHS would",
		Alternative: "`git stash` first, or write the old version elsewhere (/tmp) and compare",
		Matches:     "`git show REV:P > P`, `git cat-file -p REV:P > P` (the file the blob came from); `git diff … | git apply -R` or `| patch -R` (not `--check`, `--stat`, `--dry-run`); `git archive REV | tar -x` (or `-C DIR`) into the project",
		Fire:        []string{"git show HEAD:src/app.py > src/app.py", "git cat-file blob HEAD:go.mod > go.mod", "git diff | git apply -R", "git diff HEAD -- src | patch -p1 -R", "git archive HEAD | tar -x"},
		Pass:        []string{"git show HEAD:src/app.py > /tmp/app.py", "git show HEAD:src/app.py | less", "git diff | git apply --check -R", "git diff > x.patch", "git archive HEAD | tar -x -C /tmp/export", "git apply -R fix.patch"}},
	Rule{ID: RuleVcsDiscard, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "another version control system is told to throw away uncommitted work or commits",
		Alternative: "see what would go first (hg status, svn status, jj log), then let the operator decide",
		Matches:     "programs.VCSDiscard: `hg revert`, `hg update -C`, `hg purge`, `hg strip`, `hg rollback`, `svn revert`, `svn cleanup --remove-unversioned`, `jj abandon`, `jj restore`, `fossil revert|clean`, `bzr revert|uncommit` (not a dry run)",
		Fire:        []string{"hg revert --all", "hg purge", "hg strip -r 3", "svn revert -R .", "jj abandon @-", "hg update -C default"},
		Pass:        []string{"hg status", "hg update default", "hg purge --print", "svn status", "svn update", "jj log", "hg revert --all -n"}},
	Rule{ID: RuleGitRmForce, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "removing every tracked file by force loses their uncommitted changes",
		Alternative: "remove the files you mean to, without -f",
		Matches:     "`git rm -f`/`-rf` of the whole tree (`.`, `:/`, `*`), `git submodule deinit -f`, `git checkout-index -f`",
		Fire:        []string{"git rm -rf .", "git submodule deinit -f --all", "git checkout-index -a -f"},
		Pass:        []string{"git rm --cached build.log", "git rm -r old/", "git submodule deinit sub", "git checkout-index --prefix=/tmp/export/ -a"}},
)

var _ = onExec(func(j *judge, x execution) {
	if programs.Canon(x.e.Name) != "git" {
		return
	}
	sub, rest, cfg := programs.GitSplit(x.args)
	o := programs.GitOpts(sub, rest)
	j.worktreeOverwrite(x, sub, o)
	switch sub {
	case "rebase":
		ed, _ := assigned(x.e)("GIT_SEQUENCE_EDITOR")
		for _, c := range cfg {
			if k, v, ok := strings.Cut(c, "="); ok && strings.EqualFold(k, "sequence.editor") {
				ed = v
			}
		}
		if programs.SequenceDrops(ed) {
			j.add(RuleGitRefMove, x.detail+" (the todo editor drops commits)")
		}
	case "checkout-index":
		if o.Has('f', "force") && o.Value(0, "prefix") == "" {
			j.add(RuleGitRmForce, x.detail) // overwrites the working tree's changes from the index
		}
	case "branch":
		if o.Has('f', "force") && !o.Has('d', "delete", "D") && len(o.Pos) > 0 {
			j.refMove(o.Pos[0], o.Pos[1:], x.detail)
		}
	case "update-ref":
		if !o.Has('d') && len(o.Pos) > 0 && strings.HasPrefix(o.Pos[0], "refs/heads/") {
			j.refMove(strings.TrimPrefix(o.Pos[0], "refs/heads/"), o.Pos[1:2], x.detail)
		}
	case "switch", "checkout":
		if v := o.Value('C', "force-create"); v != "" {
			j.refMove(v, o.Pos, x.detail)
		} else if v := o.Value('B'); v != "" && sub == "checkout" {
			j.refMove(v, o.Pos, x.detail)
		}
	case "reset":
		if o.Has(0, "keep", "merge") && len(o.Pos) > 0 && relativeRev(o.Pos[0]) {
			// reset --keep HEAD~20 drops twenty commits; --keep origin/main
			// is the safe way to follow the remote (git.tsv)
			j.add(RuleGitRefMove, x.detail)
		}
	case "symbolic-ref":
		if len(o.Pos) > 1 && o.Pos[0] == "HEAD" && !o.Has('d', "delete") {
			j.add(RuleGitRefMove, x.detail)
		}
	case "push":
		if o.LongPrefix("force-with-lease") || o.LongPrefix("force-if-includes") {
			for _, r := range o.Pos[min(1, len(o.Pos)):] {
				if src, _, ok := strings.Cut(r, ":"); ok && relativeRev(src) {
					j.add(RuleGitPushForce, x.detail) // the remote branch rewound
				}
			}
		}
	case "rm":
		if o.Has('f', "force") && !o.Has(0, "cached") {
			for _, p := range o.Pos {
				if isPathspecAll(p) {
					j.add(RuleGitRmForce, x.detail)
					break
				}
			}
		}
	case "submodule":
		if len(rest) > 0 && rest[0] == "deinit" && programs.GitOpts("submodule", rest[1:]).Has('f', "force") {
			j.add(RuleGitRmForce, x.detail)
		}
	case "gc":
		for _, c := range cfg {
			if expiresNow(c) {
				j.add(RuleGitReflogExpire, x.detail)
				break
			}
		}
	case "config":
		// a setting that makes every later gc drop what only the reflog holds
		for i, p := range o.Pos {
			if i+1 < len(o.Pos) && expiresNow(p+"="+o.Pos[i+1]) {
				j.add(RuleGitReflogExpire, x.detail)
				break
			}
		}
	}
})

// bfg: the BFG Repo-Cleaner rewrites every commit as filter-repo does.
var _ = onExec(func(j *judge, x execution) {
	if programs.BFGRewrites(programs.Canon(x.e.Name), x.args) {
		j.add(RuleGitHistoryRewrite, x.detail+" (BFG)")
	}
})

// vcsDiscard: the discarding verbs of other version control systems.
var _ = onExec(func(j *judge, x execution) {
	if a := programs.VCSDiscard(x.e.Name, x.args); a != "" {
		j.add(RuleVcsDiscard, x.detail+" ("+a+")")
	}
})

// worktreeOverwrite judges git commands whose output replaces the
// working tree's version of what they print: show/cat-file REV:P > P,
// and the next pipeline stage reversing a diff (git apply -R, patch -R)
// or unpacking an archive of a revision into the project (tar -x).
func (j *judge) worktreeOverwrite(x execution, sub string, o programs.Opts) {
	e := x.e
	switch sub {
	case "show", "cat-file":
		for _, p := range o.Pos {
			rev, path, ok := strings.Cut(p, ":")
			if !ok || rev == "" && !strings.HasPrefix(path, "./") || path == "" {
				continue
			}
			for _, r := range e.Redirects {
				if (r.Op == ">" || r.Op == ">|") && (r.Fd == -1 || r.Fd == 1) && r.Target.Static && j.samePath(r.Target.Value, path, e.Dir) {
					j.add(RuleGitWorktreeOverwrite, x.detail)
					return
				}
			}
		}
	case "diff", "archive", "stash":
		if e.Pipeline == 0 {
			return
		}
		for k := range x.all {
			f := &x.all[k]
			if f.Pipeline != e.Pipeline || f.Stage != e.Stage+1 {
				continue
			}
			fa := wordValues(f.Argv[1:])
			switch {
			case sub != "archive" && reversesPatch(f.Name, fa):
				j.add(RuleGitWorktreeOverwrite, x.detail+" (reversed by "+f.Name+")")
			case sub == "archive":
				p := programs.Lookup(f.Name)
				if p == nil || p.Unpacks == nil {
					continue
				}
				if arch, dest, ok := p.Unpacks(fa); ok && (arch == "" || arch == "-") {
					if dest == "" {
						dest = "."
					}
					if d, ok := j.resolve(dest, f.Dir); ok && j.project != "" && under(d, j.project) {
						j.add(RuleGitWorktreeOverwrite, x.detail+" (unpacked over the working tree)")
					}
				}
			}
		}
	}
}

// reversesPatch: git apply -R|--reverse (not --check, --stat, --numstat,
// --summary, --cached alone), patch -R|--reverse (not --dry-run).
func reversesPatch(name string, args []string) bool {
	rev := contains(args, "-R") || contains(args, "--reverse") || contains(args, "--revert")
	for _, a := range args {
		rev = rev || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'R') && name == "patch"
	}
	if !rev {
		return false
	}
	switch programs.Canon(name) {
	case "git":
		return len(args) > 0 && args[0] == "apply" && !contains(args, "--check") && !contains(args, "--stat") &&
			!contains(args, "--numstat") && !contains(args, "--summary") && !(contains(args, "--cached") && !contains(args, "--index"))
	case "patch":
		return !contains(args, "--dry-run")
	}
	return false
}

// samePath reports a redirect target that is the file a REV:PATH names:
// PATH from the repository's top (the project), ./PATH from dir.
func (j *judge) samePath(target, path, dir string) bool {
	t, ok := j.resolve(target, dir)
	if !ok {
		return false
	}
	if strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../") {
		p, ok := j.resolve(path, dir)
		return ok && p == t
	}
	for _, base := range []string{j.project, dir} {
		if base == "" {
			continue
		}
		if p, ok := j.resolve(path, base); ok && p == t {
			return true
		}
	}
	return false
}

// refMove judges a forced move of branch to target (none: HEAD): back
// along its history, or the main branch anywhere (git branch -f release
// v1.2.3 and checkout -B dev origin/dev are routine).
func (j *judge) refMove(branch string, target []string, detail string) {
	if longLived(branch) || len(target) > 0 && relativeRev(target[0]) {
		j.add(RuleGitRefMove, detail)
	}
}

// gitStore reports the parts of the project's .git that hold its history:
// the object store, the refs and their logs, HEAD, packed-refs (not
// rebase-merge, locks or hooks, which git rebuilds or the operator owns).
func (j *judge) gitStore(p string) bool {
	g := j.project + "/.git"
	if j.project == "" || !strictlyUnder(p, g) {
		return false
	}
	for _, s := range []string{"objects", "refs", "logs", "HEAD", "packed-refs", "ORIG_HEAD"} {
		if under(p, g+"/"+s) {
			return true
		}
	}
	return false
}

// gitRefFile reports the project's ref files: .git/refs/heads/X,
// .git/HEAD, .git/packed-refs.
func (j *judge) gitRefFile(p string) bool {
	g := j.project + "/.git"
	return j.project != "" && (under(p, g+"/refs/heads") && p != g+"/refs/heads" || p == g+"/HEAD" || p == g+"/packed-refs")
}

// longLived are the main branches others build on.
func longLived(b string) bool {
	b = strings.TrimPrefix(b, "refs/heads/")
	switch b {
	case "main", "master", "trunk", "production", "prod":
		return true
	}
	return false
}

// relativeRev: a revision counted back from another (HEAD~5, main^, @{2}).
func relativeRev(r string) bool {
	return strings.ContainsAny(r, "~^") || strings.Contains(r, "@{")
}

// expiresNow: gc.reflogExpire, gc.reflogExpireUnreachable or
// gc.pruneExpire set to now, all, never-kept ("0").
func expiresNow(kv string) bool {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return false
	}
	switch strings.ToLower(k) {
	case "gc.reflogexpire", "gc.reflogexpireunreachable", "gc.pruneexpire", "gc.worktreepruneexpire":
		switch strings.ToLower(strings.Trim(v, `"' `)) {
		case "now", "all", "0", "0.seconds", "1.second":
			return true
		}
	}
	return false
}
