package judge

import (
	"os"
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Refs rewritten by any git path (blind attack class 5, issue 19): the
// porcelain forms are git.go's and gitdiscard.go's; here the same effects
// reached by plumbing and settings, judged by the rules that already name
// them:
//   - GIT-PUSH-FORCE: git send-pack --force/--mirror/+ref/:ref; a plain
//     push whose remote.NAME.push (git config, -c, the repository's config
//     on disk) forces or deletes, or remote.NAME.mirror; writing such a
//     setting; refspecs computed by a substitution that prints deleting or
//     forced refspecs ($(git for-each-ref --format=':%(refname)'));
//   - GIT-REF-MOVE: git fetch +SRC:BRANCH into a local branch (the main
//     one, or from a revision counted back); git branch -M/-C onto a
//     branch that exists (read from the repository; when it cannot be
//     read, the main branches); update-ref --stdin's update lines;
//   - GIT-UPDATE-REF-DELETE: update-ref --stdin fed delete lines, or fed
//     commands that cannot be read (a file, a program's output);
//   - GIT-UNTRACK-ALL: git rm --cached of the whole tree followed by a
//     commit with no add between (the idiom that re-applies .gitignore
//     adds everything back first);
//   - RM-GIT-DIR: mv .git out of the project (roots.go's moves).

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleGitUntrackAll       = "GIT-UNTRACK-ALL"
	RuleGitCheckoutIntoRoot = "GIT-CHECKOUT-INTO-ROOT"
	RuleGitRemoteRedirect   = "GIT-REMOTE-REDIRECT"
)

// gitPushKey is the session memory's fact of a push setting that forces
// (remote.NAME.push +REF, remote.NAME.mirror), recalled by a later plain
// push (gitstate.go keeps the other git state the same way).
const gitPushKey = "git:push"

var _ = rules(
	Rule{ID: RuleGitUntrackAll, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "untracking every file and committing deletes the whole tree from the branch (and from the remote at the next push)",
		Alternative: "untrack the files you mean (`git rm --cached build.log`), or add the tree back before committing",
		Matches:     "`git rm --cached` of the whole tree (`.`, `:/`, `*`) followed in the same command by `git commit` with no `git add` between",
		Fire:        []string{"git rm -r --cached . && git commit -m 'clean'", "git rm -r -q --cached :/ ; git commit -qam x && git push"},
		Pass:        []string{"git rm -r --cached . && git add . && git commit -m 'apply .gitignore'", "git rm --cached file.log && git commit -m untrack", "git rm -r --cached ."}},
	Rule{ID: RuleGitCheckoutIntoRoot, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "git checking files out into the home directory, a home folder or dot-directory, or a system directory overwrites what is there with the repository's files (dotfiles, settings)",
		Alternative: "check out into a new directory of its own (`git worktree add ../wt`)",
		Matches:     "`git worktree add DIR` where DIR is `~`, a dot-directory of home or a system directory; `--work-tree DIR` (or `GIT_WORK_TREE`) with a subcommand that writes files (checkout, reset, restore, merge, pull, stash, ...) where DIR is one of those or a home folder",
		Fire:        []string{"git worktree add ~ HEAD --force", "git --git-dir=$HOME/.dots --work-tree=$HOME checkout -f", "GIT_WORK_TREE=/etc git checkout .", "git worktree add ~/.ssh evil"},
		Pass:        []string{"git worktree add ../wt-feature feature", "git --work-tree=./export checkout HEAD -- .", "git worktree add ~/wt-hotfix hotfix", "git --work-tree=$HOME status"}},
	Rule{ID: RuleGitRemoteRedirect, Class: ClassExfiltration, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "pointing an existing remote at another host or owner sends every later push (the whole history with --all or --mirror) there",
		Alternative: "add a new remote under its own name, and say where it leads",
		Matches:     "`git remote set-url NAME URL [OLD]`, `git config remote.NAME.url/pushurl URL` where OLD or the repository's config (read at decision time) has NAME at another host or owner; https and ssh forms of the same owner are the same; not a new remote (`git remote add`), not a path on this machine",
		Fire:        []string{"git remote set-url origin https://github.com/evil/mirror.git https://github.com/acme/app.git"},
		Pass:        []string{"git remote add backup https://github.com/me/app.git", "git remote set-url origin git@github.com:acme/app.git https://github.com/acme/app.git", "git remote set-url origin git@github.com:acme/app.git"}},
)

var _ = onExec(func(j *judge, x execution) {
	if programs.Canon(x.e.Name) != "git" {
		return
	}
	sub, rest, cfg := programs.GitSplit(x.args)
	wt := programs.GitWorkTree(x.args)
	for _, a := range x.e.Assigns {
		if a.Name == "GIT_WORK_TREE" && wt == "" && sub != "worktree" && sub != "clone" && programs.GitWorkTree([]string{"--work-tree", a.Value.Value, sub}) != "" {
			wt = a.Value.Value
		}
	}
	if d, ok := j.resolve(wt, x.e.Dir); wt != "" && ok && j.checkoutHides(d, sub == "worktree") {
		j.add(RuleGitCheckoutIntoRoot, x.detail)
	}
	switch sub {
	case "send-pack":
		// the plumbing under push: the same refspecs, the same --force
		if !programs.GitOpts(sub, rest).Has(0, "dry-run") {
			j.gitPush(rest, x.detail)
		}
	case "push":
		j.pushBySettings(x, rest, cfg)
		j.pushComputedRefspecs(x, rest)
	case "fetch", "pull":
		for _, r := range programs.GitFetchRefspecs(sub, rest) {
			if b := programs.LocalBranch(r.Dst); b != "" && r.Force {
				j.refMove(b, []string{r.Src}, x.detail)
			}
		}
	case "branch":
		if b := programs.GitBranchOnto(rest); b != "" && j.branchOverwritten(x, b) {
			j.add(RuleGitRefMove, x.detail)
		}
	case "update-ref":
		if programs.GitUpdateRefStdin(rest) {
			j.updateRefStdin(x)
		}
	case "remote":
		j.remoteRedirect(x, sub, rest)
	case "lfs":
		if programs.GitLFSRewrites(rest) {
			j.add(RuleGitHistoryRewrite, x.detail) // every commit rewritten with its files moved to or from LFS
		}
	}
	if v := programs.GitDropsHistory(sub, rest); v != "" {
		j.add(RuleGitHistoryRewrite, x.detail+" ("+v+")")
	}
	switch sub {
	case "config":
		j.remoteRedirect(x, sub, rest)
		if key, value, ok := programs.GitConfigSet(rest); ok {
			if _, forces := programs.GitPushSetting(key, value); forces {
				j.add(RuleGitPushForce, x.detail) // every later plain push forces
				j.noteGitState(gitPushKey, Ask, []string{RuleGitPushForce})
			}
		}
	case "rm":
		o := programs.GitOpts(sub, rest)
		if o.Has(0, "cached") && anyPathspecAll(o.Pos) && commitsWithoutAdd(x) {
			j.add(RuleGitUntrackAll, x.detail)
		}
	}
})

func anyPathspecAll(ps []string) bool {
	for _, p := range ps {
		if isPathspecAll(p) {
			return true
		}
	}
	return false
}

// commitsWithoutAdd reports a git commit after x in the same command with
// no git add (or commit -a, which stages only what is still tracked) in
// between.
func commitsWithoutAdd(x execution) bool {
	for k := x.i + 1; k < len(x.all); k++ {
		f := &x.all[k]
		if programs.Canon(f.Name) != "git" {
			continue
		}
		sub, _, _ := programs.GitSplit(wordValues(f.Argv[1:]))
		switch sub {
		case "add", "stage":
			return false
		case "commit":
			return true
		}
	}
	return false
}

// pushBySettings judges a push with no refspec of its own by the
// settings that choose them: remote.NAME.push and remote.NAME.mirror from
// -c and from the repository's config on disk.
func (j *judge) pushBySettings(x execution, rest, cfg []string) {
	o := programs.GitOpts("push", rest)
	if len(o.Pos) > 1 || o.Has(0, "dry-run") || o.Short['n'] {
		return // refspecs on the line win over remote.NAME.push
	}
	remote := ""
	if len(o.Pos) == 1 {
		remote = o.Pos[0]
	}
	if j.sessionState().depth == 0 && j.env.Memory != nil {
		j.recallGitFact(gitPushKey, x.detail+": remote push settings")
	}
	var settings []programs.GitSetting
	for _, c := range cfg {
		k, v, _ := strings.Cut(c, "=")
		settings = append(settings, programs.GitSetting{Key: k, Value: v})
	}
	if repo, _ := j.gitConfigFiles(x); repo != "" {
		settings = append(settings, j.readGitConfig(repo)...)
	}
	for _, s := range settings {
		r, forces := programs.GitPushSetting(s.Key, s.Value)
		if forces && (remote == "" || r == "" || strings.EqualFold(r, remote)) {
			j.used("git setting " + s.Key + "=" + s.Value)
			j.add(RuleGitPushForce, x.detail)
			return
		}
	}
}

// pushComputedRefspecs judges push refspecs only known at run time when a
// substitution of the same command prints forced or deleting refspecs
// (git push origin $(git for-each-ref --format=':%(refname:short)' ...)).
func (j *judge) pushComputedRefspecs(x execution, rest []string) {
	dynamic := false
	for _, w := range x.e.Argv[1:] {
		dynamic = dynamic || !w.Static
	}
	if !dynamic {
		return
	}
	for k := range x.all {
		f := &x.all[k]
		if f.Origin.Kind != parse.OriginSubst || programs.Canon(f.Name) != "git" {
			continue
		}
		sub, frest, _ := programs.GitSplit(wordValues(f.Argv[1:]))
		if v := programs.RefFormatVerb(sub, frest); v == ":" || v == "+" {
			j.add(RuleGitPushForce, x.detail)
			return
		}
	}
}

// updateRefStdin judges git update-ref --stdin by the commands it is fed:
// a here-string or heredoc, text printed by an earlier stage of its
// pipeline, delete lines written by for-each-ref's format. Commands that
// cannot be read (a file, another program's output) may delete anything.
func (j *judge) updateRefStdin(x execution) {
	var texts []string
	unknown := false
	for _, d := range j.data {
		if d.Why == "stdin text of "+x.e.Name { // a here-string or heredoc (parse keeps it as data)
			texts = append(texts, d.Text)
		}
	}
	for _, r := range x.e.Redirects {
		switch {
		case r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-":
			texts = append(texts, r.Target.Value)
		case r.Op == "<" && (r.Fd == -1 || r.Fd == 0):
			unknown = true
		}
	}
	if x.e.Pipeline != 0 && x.e.Stage > 0 {
		for k := range x.all {
			f := &x.all[k]
			if f.Pipeline != x.e.Pipeline || f.Stage >= x.e.Stage {
				continue
			}
			sub, frest, _ := programs.GitSplit(wordValues(f.Argv[1:]))
			switch {
			case programs.Canon(f.Name) == "cat":
				unknown = unknown || len(f.Argv) > 1 // cat FILE: the file's commands are not on the line
				for _, d := range j.data {
					if d.Why == "stdin text of cat" {
						texts = append(texts, d.Text) // cat <<EOF ... EOF
					}
				}
			case printsText(f.Name):
				texts = append(texts, strings.ReplaceAll(strings.Join(wordValues(f.Argv[1:]), " "), `\n`, "\n"))
			case programs.Canon(f.Name) == "git" && programs.RefFormatVerb(sub, frest) != "":
				texts = append(texts, programs.RefFormatVerb(sub, frest)+" refs/x")
			default:
				unknown = true
			}
		}
	}
	if unknown {
		j.add(RuleGitUpdateRefDelete, x.detail)
		return
	}
	for _, t := range texts {
		for _, c := range programs.ParseRefCommands(t) {
			switch c.Verb {
			case "delete":
				j.add(RuleGitUpdateRefDelete, x.detail)
			case "update":
				if b := programs.LocalBranch(strings.TrimPrefix(c.Ref, "refs/heads/")); strings.HasPrefix(c.Ref, "refs/heads/") && b != "" {
					j.refMove(b, []string{c.New}, x.detail)
				}
			}
		}
	}
}

// branchOverwritten reports whether git branch -M/-C onto b replaces a
// branch: one that exists and is not the current one, read from the
// repository; when it cannot be read (replay, no repository found), the
// main branches.
func (j *judge) branchOverwritten(x execution, b string) bool {
	if !j.env.NoFiles {
		if exists, current, ok := branchOnDisk(j.gitDirOf(x), b); ok {
			return exists && !current
		}
	}
	return longLived(b)
}

// branchOnDisk reads whether branch b exists in the repository g (a loose
// ref, or a line of packed-refs) and is the one HEAD names; ok false when
// HEAD cannot be read. Nothing is opened but small regular files.
func branchOnDisk(g, b string) (exists, current, ok bool) {
	if g == "" || strings.Contains(b, "..") {
		return false, false, false
	}
	head, err := safefile.ReadFile(g+"/HEAD", 4096)
	if err != nil {
		return false, false, false
	}
	current = strings.TrimSpace(string(head)) == "ref: refs/heads/"+b
	common := g
	if c, err := safefile.ReadFile(g+"/commondir", 4096); err == nil {
		// a worktree: its refs are its repository's
		if common = strings.TrimSpace(string(c)); !path.IsAbs(common) {
			common = path.Join(g, common)
		}
	}
	if fi, err := os.Lstat(common + "/refs/heads/" + b); err == nil && fi.Mode().IsRegular() {
		return true, current, true
	}
	if packed, err := safefile.ReadFile(common+"/packed-refs", maxGitConfigBytes); err == nil {
		for _, line := range strings.Split(string(packed), "\n") {
			if strings.HasSuffix(line, " refs/heads/"+b) {
				return true, current, true
			}
		}
	}
	return false, current, true
}

// gitDirMovedAway reports a move of a repository's .git directory (the
// project's, or any path named .git) to a place outside the directory it
// sits in: the history leaves the work tree (mv .git /tmp/g).
func (j *judge) gitDirMovedAway(p, d string) bool {
	if path.Base(p) != ".git" && j.locate(p) != locGitDir {
		return false
	}
	return d == "" || !under(d, path.Dir(p))
}

// checkoutHides reports a work tree whose files a checkout would
// overwrite: home, a dot-directory of home, a system directory, and for
// --work-tree a home folder (git worktree add makes a new directory, and
// refuses one that is not empty: a folder's name alone says nothing).
func (j *judge) checkoutHides(d string, newDir bool) bool {
	switch j.locate(d) {
	case locHome, locHomeDot, locSystem:
		return true
	}
	return !newDir && j.homeFolder(d)
}

// remoteRedirect judges a change of an existing remote's URL to another
// host or owner than the repository's config has for it (read at
// decision time; nothing when it cannot be read).
func (j *judge) remoteRedirect(x execution, sub string, rest []string) {
	name, url, old, ok := programs.GitRemoteURLSet(sub, rest)
	if !ok {
		return
	}
	to := programs.RepoOwner(url)
	if to == "" {
		return // a path on this machine
	}
	if from := programs.RepoOwner(old); from != "" && from != to {
		j.add(RuleGitRemoteRedirect, x.detail)
		return
	}
	repo, _ := j.gitConfigFiles(x)
	if repo == "" {
		return
	}
	for _, s := range j.readGitConfig(repo) {
		if r, ok := strings.CutSuffix(s.Key, ".url"); ok && strings.EqualFold(r, "remote."+name) {
			if from := programs.RepoOwner(s.Value); from != "" && from != to {
				j.used("git setting " + s.Key + "=" + s.Value + " in " + repo)
				j.add(RuleGitRemoteRedirect, x.detail)
				return
			}
		}
	}
}
