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
	RuleGitRefMove = "GIT-REF-MOVE"
	RuleGitRmForce = "GIT-RM-FORCE"
)

var _ = rules(
	Rule{ID: RuleGitRefMove, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "moving a branch by force drops its commits from it (they survive only in the reflog)",
		Alternative: "create a new branch at the target instead; keep the old one",
		Matches:     "`branch -f`, `update-ref refs/heads/X`, `switch -C`, `checkout -B` of the main branch (main, master, trunk, prod) or to a relative target; `reset --keep`/`--merge` to a relative revision; `symbolic-ref HEAD REF`; `fetch`/`pull` of a forced refspec into such a local branch (`git fetch . +HEAD~9:main`), `update-ref --stdin` update lines; `branch -M`/`-C` (`-m`/`-c --force`) onto a branch that exists and is not the current one (read from the repository; the main branches when it cannot be read) (gitrefs.go)",
		Fire: []string{"git branch -f main HEAD~5", "git update-ref refs/heads/main HEAD~5", "git switch -C main origin/main", "git checkout -B main origin/main", "git reset --keep HEAD~20",
			"git fetch . +HEAD~9:refs/heads/main", "git branch -M main", "git branch -c -f wip master"},
		Pass: []string{"git branch -f feature HEAD", "git update-ref refs/heads/tmp HEAD", "git switch -c feature/x", "git checkout -b feature/x", "git reset --soft HEAD~1",
			"git fetch origin +refs/heads/*:refs/remotes/origin/*", "git fetch origin main:main", "git branch -m feature", "git branch -M feature/old feature/new"}},
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
	switch sub {
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
