package programs

import "strings"

// Version control systems other than git (issue 19, blind class
// git-discard): the verbs that throw away uncommitted work or commits the
// way git checkout -- ., git clean -f and git reset --hard do. git's own
// verbs are in git.go.

// VCSDiscard names what a Mercurial, Subversion, Jujutsu, Fossil or
// Bazaar command line discards, or "": hg revert, update -C, purge,
// strip, rollback; svn revert, cleanup --remove-unversioned; jj abandon,
// restore; fossil revert, clean; bzr revert, uncommit. A dry run (-n,
// --dry-run, --print) discards nothing.
func VCSDiscard(name string, args []string) string {
	ops := Operands(args)
	if len(ops) == 0 || has(args, "-n", "--dry-run", "--print", "-p") && !strings.HasPrefix(baseOf(name), "jj") {
		return ""
	}
	v := ops[0]
	switch strings.ToLower(baseOf(name)) {
	case "hg", "chg":
		switch v {
		case "revert", "purge", "clean", "strip", "rollback", "prune":
			return "hg " + v
		case "update", "up", "checkout", "co":
			if has(args, "-C", "--clean") {
				return "hg " + v + " --clean"
			}
		case "shelve":
			if has(args, "-d", "--delete", "--cleanup") {
				return "hg shelve --delete"
			}
		}
	case "svn":
		switch {
		case v == "revert":
			return "svn revert"
		case v == "cleanup" && has(args, "--remove-unversioned", "--remove-ignored"):
			return "svn cleanup --remove-unversioned"
		}
	case "jj":
		switch v {
		case "abandon", "restore":
			return "jj " + v
		}
	case "fossil":
		switch v {
		case "revert", "clean", "purge":
			return "fossil " + v
		}
	case "bzr", "brz":
		switch v {
		case "revert", "uncommit", "clean-tree":
			return "bzr " + v
		}
	}
	return ""
}

// SequenceDrops reports a rebase todo editor that drops commits: a sed
// (or perl) script that turns pick into drop or d, or deletes the pick
// lines (GIT_SEQUENCE_EDITOR="sed -i 's/^pick/drop/'", -c
// sequence.editor="sed -i '/^pick/d'"). ':' and true keep the todo as it
// is (rebase -i --autosquash non-interactively).
func SequenceDrops(editor string) bool {
	e := strings.Join(strings.Fields(editor), " ")
	for _, w := range []string{"/drop/", "/drop /", "/d/", "/d /", "^pick/d", "pick/d'", "pick/d\"", "pick.*/d", "/^pick/ d", "/^pick/d"} {
		if strings.Contains(e, w) {
			return true
		}
	}
	return false
}

// GitListsUntracked reports git arguments that print the untracked files
// (ls-files -o/--others, status --porcelain's ?? lines are not paths
// alone): fed to rm, that is git clean -f.
func GitListsUntracked(args []string) bool {
	sub, rest, _ := GitSplit(args)
	return sub == "ls-files" && (has(rest, "-o", "--others") || HasShortFlag(rest, 'o')) && !has(rest, "--ignored", "-i")
}

// GitHooksRun are the hooks (in .git/hooks) a git subcommand runs.
func GitHooksRun(sub string) []string {
	switch sub {
	case "commit":
		return []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"}
	case "checkout", "switch", "clone":
		return []string{"post-checkout"}
	case "worktree":
		return []string{"post-checkout"}
	case "merge", "pull":
		return []string{"pre-merge-commit", "post-merge", "prepare-commit-msg", "commit-msg"}
	case "push":
		return []string{"pre-push", "reference-transaction"}
	case "rebase":
		return []string{"pre-rebase", "post-rewrite", "post-checkout"}
	case "am":
		return []string{"applypatch-msg", "pre-applypatch", "post-applypatch"}
	case "cherry-pick", "revert":
		return []string{"prepare-commit-msg", "commit-msg", "post-commit"}
	case "gc", "maintenance":
		return []string{"pre-auto-gc"}
	}
	return nil
}
