package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleGitResetHard           = "GIT-RESET-HARD"
	RuleGitStashDrop           = "GIT-STASH-DROP"
	RuleGitCleanForce          = "GIT-CLEAN-FORCE"
	RuleGitCheckoutDiscard     = "GIT-CHECKOUT-DISCARD"
	RuleGitRestoreWorktree     = "GIT-RESTORE-WORKTREE"
	RuleGitSwitchDiscard       = "GIT-SWITCH-DISCARD"
	RuleGitPushForce           = "GIT-PUSH-FORCE"
	RuleGitBranchForceDelete   = "GIT-BRANCH-FORCE-DELETE"
	RuleGitReflogExpire        = "GIT-REFLOG-EXPIRE"
	RuleGitHistoryRewrite      = "GIT-HISTORY-REWRITE"
	RuleGitUpdateRefDelete     = "GIT-UPDATE-REF-DELETE"
	RuleGitWorktreeRemoveForce = "GIT-WORKTREE-REMOVE-FORCE"
	RuleGitReadTreeReset       = "GIT-READ-TREE-RESET"
	RuleGitHooksPath           = "GIT-HOOKS-PATH"
	RuleGitNoVerify            = "GIT-NO-VERIFY"
)

var _ = rules(
	Rule{ID: RuleGitResetHard, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "git reset --hard discards uncommitted changes in the worktree and index",
		Alternative: "commit or `git stash` first, or use `git reset --keep`",
		Matches:     "`git reset --hard` (any position, any global options: `-C`, `--git-dir`, `GIT_DIR=`, `-c`)",
		Fire:        []string{`git {reset,} --hard`, `git reset {--hard,}`, "git reset --hard", "git -C ../other reset -q --hard HEAD@{1}"},
		Pass:        []string{`git {status,log}`, "git reset --soft HEAD~1", "git commit -m 'never git reset --hard'", "git reset --keep HEAD~1"}},
	Rule{ID: RuleGitStashDrop, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "git stash drop/clear deletes stashed work",
		Alternative: "leave the stash in place; `git stash list` to inspect it",
		Matches:     "`git stash drop`, `git stash clear`",
		Fire:        []string{"git stash drop", "git stash clear"},
		Pass:        []string{"git stash list", "git stash pop"}},
	Rule{ID: RuleGitCleanForce, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "git clean -f deletes untracked files that git cannot restore",
		Alternative: "run `git clean -n` to see what would go, then remove paths explicitly",
		Matches:     "`git clean -f…` (or with `clean.requireForce=false` set by `-c`, and writing that setting) without `-n`/`-i`; a forced rm fed the untracked files git lists (`git ls-files -o | xargs rm -f`: programs.GitListsUntracked)",
		Fire:        []string{"git clean -fd", "git clean -dfx -e .env", "git ls-files -o --exclude-standard | xargs rm -f", "git -c clean.requireForce=false clean -dx", "git config clean.requireForce false"},
		Pass:        []string{"git clean -n", "git clean -fdn", "git -c clean.requireForce=false clean -dxn", "git config clean.requireForce true", "git ls-files -o --exclude-standard", "git ls-files -z | xargs -0 wc -l"}},
	Rule{ID: RuleGitCheckoutDiscard, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "git checkout of paths (or -f) overwrites uncommitted changes",
		Alternative: "`git stash` first, or `git diff` to see what would be lost",
		Matches:     "`git checkout -f`, `checkout [REV] -- PATHS`, `checkout .` / `:/` / `*`",
		Fire:        []string{"git checkout .", "git checkout -- src/app.js"},
		Pass:        []string{"git checkout -b feature", "git checkout main"}},
	Rule{ID: RuleGitRestoreWorktree, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "git restore of the worktree overwrites uncommitted changes",
		Alternative: "`git restore --staged` only unstages; `git stash` keeps the changes",
		Matches:     "`git restore PATHS` unless only `--staged`",
		Fire:        []string{"git restore .", "git restore src/app.js"},
		Pass:        []string{"git restore --staged src/app.js"}},
	Rule{ID: RuleGitSwitchDiscard, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "git switch -f/--discard-changes throws away local changes",
		Alternative: "commit or stash, then switch without --discard-changes",
		Matches:     "`git switch -f` / `--discard-changes`",
		Fire:        []string{"git switch -f main", "git switch --discard-changes feature"},
		Pass:        []string{"git switch -c feature", "git switch main"}},
	Rule{ID: RuleGitPushForce, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "force push, mirror push or remote ref deletion rewrites shared history",
		Alternative: "`git push --force-with-lease`, or push a new branch",
		Matches:     "`push -f`/`--force`/`--mirror`/`--delete`/`-d`/`--prune`, `+ref`, `:ref`; not `--force-with-lease` alone, unless its source counts back (`HEAD~10:main`, gitdiscard.go); the same by `send-pack`; a plain push whose `remote.NAME.push` forces or deletes or `remote.NAME.mirror` (or `push.default=mirror`) is set (`-c`, the repository's config), and writing such a setting; refspecs printed by a substitution whose format forces or deletes (`$(git for-each-ref --format=':%(refname)')`) (gitrefs.go)",
		Fire: []string{`mcp__github__delete_branch {"owner":"acme","repo":"app","branch":"main"}`, `git push --{force,}`, "git push --force", "git push origin +main", "git send-pack --force origin HEAD:refs/heads/main",
			"git config remote.origin.push '+refs/heads/*:refs/heads/*'", "git -c remote.origin.mirror=true push origin", "git -c push.default=mirror push"},
		Pass: []string{`mcp__github__create_branch {"owner":"acme","repo":"app","branch":"feature"}`, "git push --force-with-lease", "git push origin main", "git send-pack --dry-run origin HEAD:refs/heads/feature",
			"git config remote.origin.push 'refs/heads/*:refs/heads/*'", "git push origin $(git branch --show-current)"}},
	Rule{ID: RuleGitBranchForceDelete, Class: ClassDiscardWork, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "git branch -D deletes a branch even when it is not merged",
		Alternative: "`git branch -d` refuses to delete unmerged work",
		Matches:     "`branch -D`, `-d --force`",
		Fire:        []string{"git branch -D feature/login", "git branch -df old"},
		Pass:        []string{"git branch -d merged", "git branch -a"}},
	Rule{ID: RuleGitReflogExpire, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "expiring the reflog or pruning now removes the last way back to lost commits",
		Alternative: "leave reflog and gc to their defaults",
		Matches:     "`reflog expire/delete`, `gc --prune=now/all`, `git prune`",
		Fire:        []string{"git reflog expire --expire=now --all", "git gc --prune=now --aggressive"},
		Pass:        []string{"git reflog", "git gc"}},
	Rule{ID: RuleGitHistoryRewrite, Class: ClassDiscardWork, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "the history is rewritten or what holds it dropped (filter-branch, filter-repo, BFG, replace refs, fast-import --force, lfs prune by force)",
		Alternative: "work on a fresh clone and review before pushing",
		Matches:     "`filter-branch`, `filter-repo`, `lfs migrate import/export` (not `--dry-run`/`--no-rewrite`); programs.GitDropsHistory: `replace OBJ REPL` (`--edit`, `--graft`; not `-l`/`-d`), `fast-import --force`, `lfs prune --force` (or `--when-unverified=continue`, not `--dry-run`) (gitrefs.go); programs.BFGRewrites: `bfg`, `java -jar bfg*.jar` (not `--help`)",
		Fire:        []string{"git filter-repo --path secrets.txt --invert-paths", "git filter-branch --tree-filter 'rm -f x' HEAD", "git lfs migrate import --everything --include='*.psd'", "git replace HEAD HEAD~10", "git fast-import --force < h.fi", "git lfs prune --force", "bfg --delete-files '*.py' .", "java -jar bfg.jar --strip-blobs-bigger-than 1K ."},
		Pass:        []string{"git log --follow x", "git lfs migrate info --everything", "git lfs track '*.psd'", "git replace -l", "git replace -d 3f2a1b", "git fast-import < h.fi", "git lfs prune --dry-run", "git lfs prune", "bfg --help", "java -jar app.jar --strip"}},
	Rule{ID: RuleGitUpdateRefDelete, Class: ClassDiscardWork, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "git update-ref -d deletes a ref without any safety check",
		Alternative: "`git branch -d` / `git tag -d` with review",
		Matches:     "`update-ref -d`; `update-ref --stdin` fed `delete` lines (a here-string, printed text, `for-each-ref --format='delete …'`) or commands it cannot read (a file, another program's output) (gitrefs.go)",
		Fire:        []string{"git update-ref -d refs/heads/main", "git update-ref --stdin <<< 'delete refs/heads/main'", "git update-ref --stdin < cmds.txt"},
		Pass:        []string{"git update-ref refs/heads/x HEAD", "git update-ref --stdin <<< 'verify refs/heads/main HEAD'"}},
	Rule{ID: RuleGitWorktreeRemoveForce, Class: ClassDiscardWork, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "git worktree remove --force deletes a worktree with uncommitted changes",
		Alternative: "commit in that worktree first, or remove it without --force",
		Matches:     "`worktree remove -f`",
		Fire:        []string{"git worktree remove --force ../wt"},
		Pass:        []string{"git worktree remove ../wt", "git worktree list"}},
	Rule{ID: RuleGitReadTreeReset, Class: ClassDiscardWork, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "git read-tree --reset overwrites the index (and with -u the worktree)",
		Alternative: "`git stash` first",
		Matches:     "`read-tree --reset`",
		Fire:        []string{"git read-tree --reset -u HEAD"},
		Pass:        []string{"git read-tree HEAD"}},
	Rule{ID: RuleGitHooksPath, Class: ClassOversight, Severity: SevHigh, Decision: Ask, Catastrophic: false,
		Reason:      "changing core.hooksPath bypasses the repository's hooks",
		Alternative: "leave hooks configured as they are",
		Matches:     "`git config [--global] core.hooksPath V`, `--unset`, `git -c core.hooksPath=…`",
		Fire:        []string{"git config core.hooksPath /dev/null", "git -c core.hooksPath=/dev/null commit -m x"},
		Pass:        []string{"git config core.hooksPath", "git config user.name Ann"}},
	Rule{ID: RuleGitNoVerify, Class: ClassOversight, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "--no-verify skips the commit/push hooks (tests, linters, secret scans)",
		Alternative: "fix what the hook reports, then commit normally",
		Matches:     "`--no-verify` on commit/push/merge/am/rebase/cherry-pick/revert/pull, `commit -n` (also after `-S`: commit's `-S[KEYID]`/`-u[MODE]` take their value stuck, never the next word), `HUSKY=0 git commit`",
		Fire: []string{`SKIP=flake8 git commit -m x`, "git commit --no-verify -m x", "HUSKY=0 git commit -m x",
			"git commit -S --no-verify -m x", "git commit -S -n -m x"},
		Pass: []string{`SKIP= git commit -m x`, "git commit -m x", "git commit -m 'add --no-verify docs'",
			"git commit -S -m x", "git commit -SABCD -m x"}},
)

func isHooksPathKey(k string) bool {
	k, _, _ = strings.Cut(k, "=")
	return strings.EqualFold(k, "core.hooksPath")
}

// skipsHooks reports a variable that switches commit hooks off without
// touching them: husky (HUSKY=0), pre-commit (SKIP=ids), lefthook,
// overcommit.
func skipsHooks(name, value string) bool {
	switch name {
	case "HUSKY":
		return value == "0"
	case "HUSKY_SKIP_HOOKS", "LEFTHOOK_EXCLUDE", "OVERCOMMIT_DISABLE", "PRE_COMMIT_ALLOW_NO_CONFIG":
		return value != "" && value != "0"
	case "SKIP":
		return value != ""
	case "LEFTHOOK":
		return value == "0" || value == "false"
	}
	return false
}

// git judges one git invocation.
func (j *judge) git(e *parse.Exec, args []string, detail string) {
	sub, rest, cfg := programs.GitSplit(args)
	settings := gitSettings(e, sub, rest, cfg)
	for _, c := range settings {
		if isHooksPathKey(c) {
			j.add(RuleGitHooksPath, detail)
		}
	}
	for _, a := range e.Assigns {
		if skipsHooks(a.Name, a.Value.Value) {
			if sub == "commit" || sub == "push" || sub == "merge" {
				j.add(RuleGitNoVerify, detail)
			}
		}
	}
	if j.gitAlias(e, args, sub, rest, settings, detail) {
		return
	}
	switch sub {
	case "pull", "merge", "checkout", "switch", "reset", "restore", "rebase":
		j.gitCheckoutInto(e, args, sub, rest, detail)
	}
	switch o := programs.GitOpts(sub, rest); sub {
	case "checkout":
		// git checkout REF -- PATH: PATH is written with REF's version
		// (the agent's settings, a hook's script from a branch it made)
		j.writesTo(e, o.AfterDash, kindEdit, detail)
	case "restore":
		if !o.Has('S', "staged") || o.Has('W', "worktree") {
			j.writesTo(e, o.Pos, kindEdit, detail)
		}
	}
	switch sub {
	case "reset":
		o := programs.GitOpts(sub, rest)
		if o.Has(0, "hard") {
			j.add(RuleGitResetHard, detail)
		}
	case "stash":
		if len(rest) > 0 && (rest[0] == "drop" || rest[0] == "clear") {
			j.add(RuleGitStashDrop, detail)
		}
	case "clean":
		o := programs.GitOpts(sub, rest)
		unforced := false // clean.requireForce=false: no -f needed
		for _, c := range settings {
			k, v, _ := strings.Cut(c, "=")
			unforced = unforced || programs.GitCleanUnforced(k, v)
		}
		if (unforced || o.Has('f', "force")) && !o.Has('n', "dry-run") && !o.Has('i', "interactive") {
			j.add(RuleGitCleanForce, detail)
		}
	case "checkout":
		o := programs.GitOpts(sub, rest)
		if o.Has('f', "force") || len(o.AfterDash) > 0 || o.Has(0, "pathspec-from-file") {
			j.add(RuleGitCheckoutDiscard, detail)
			return
		}
		if o.Has('p', "patch") {
			return
		}
		for _, p := range o.Pos {
			if isPathspecAll(p) {
				j.add(RuleGitCheckoutDiscard, detail)
				return
			}
		}
	case "restore":
		o := programs.GitOpts(sub, rest)
		staged := o.Has('S', "staged")
		worktree := o.Has('W', "worktree")
		if (!staged || worktree) && !o.Has('p', "patch") && (len(o.Pos) > 0 || o.Has(0, "pathspec-from-file")) {
			j.add(RuleGitRestoreWorktree, detail)
		}
	case "switch":
		o := programs.GitOpts(sub, rest)
		if o.Has('f', "force", "discard-changes") {
			j.add(RuleGitSwitchDiscard, detail)
		}
	case "push":
		j.gitPush(rest, detail)
	case "branch":
		o := programs.GitOpts(sub, rest)
		if o.Short['D'] || (o.Has('d', "delete") && o.Has('f', "force")) {
			j.add(RuleGitBranchForceDelete, detail)
		}
	case "reflog":
		if len(rest) > 0 && (rest[0] == "expire" || rest[0] == "delete") {
			j.add(RuleGitReflogExpire, detail)
		}
	case "gc":
		o := programs.GitOpts(sub, rest)
		if v, ok := o.Long["prune"]; ok && (v == "now" || v == "all") {
			j.add(RuleGitReflogExpire, detail)
		}
	case "prune":
		o := programs.GitOpts(sub, rest)
		if !o.Has('n', "dry-run") {
			j.add(RuleGitReflogExpire, detail)
		}
	case "filter-branch", "filter-repo":
		j.add(RuleGitHistoryRewrite, detail)
	case "update-ref":
		o := programs.GitOpts(sub, rest)
		if o.Has('d') {
			j.add(RuleGitUpdateRefDelete, detail)
		}
	case "worktree":
		if len(rest) > 0 && rest[0] == "remove" {
			o := programs.GitOpts(sub, rest[1:])
			if o.Has('f', "force") {
				j.add(RuleGitWorktreeRemoveForce, detail)
			}
		}
	case "read-tree":
		o := programs.GitOpts(sub, rest)
		if o.Has(0, "reset") {
			j.add(RuleGitReadTreeReset, detail)
		}
	case "config":
		j.gitConfig(e, rest, detail)
	}
	switch sub {
	case "commit", "push", "merge", "am", "rebase", "cherry-pick", "revert", "pull":
		o := programs.Parse(rest, programs.GitNoVerifySpec)
		if o.Has(0, "no-verify") || (sub == "commit" && o.Short['n']) {
			j.add(RuleGitNoVerify, detail)
		}
	}
}

// isPathspecAll matches pathspecs that name a whole tree: ".", "./", ":/",
// "*", "dir/." and magic pathspecs.
func isPathspecAll(p string) bool {
	return p == "." || p == "./" || p == ":/" || p == ":" || p == "*" || p == ".." ||
		strings.HasSuffix(p, "/.") || strings.HasPrefix(p, ":(")
}

func (j *judge) gitPush(rest []string, detail string) {
	o := programs.GitOpts("push", rest)
	if o.Has('f', "force", "mirror", "delete", "prune") || o.Short['d'] {
		j.add(RuleGitPushForce, detail)
		return
	}
	// operands: remote then refspecs
	for i, p := range o.Pos {
		if i == 0 {
			continue
		}
		if strings.HasPrefix(p, "+") || strings.HasPrefix(p, ":") {
			j.add(RuleGitPushForce, detail)
			return
		}
	}
}

func (j *judge) gitConfig(e *parse.Exec, rest []string, detail string) {
	// A setting is judged where it is written as well as where git uses it
	// (gitstate.go): a --global alias or core.fsmonitor outlives this
	// command, and a later "git nuke" or "git status" in another call
	// would not show what it runs.
	if key, value, ok := programs.GitConfigSet(rest); ok {
		if programs.GitCleanUnforced(key, value) {
			j.add(RuleGitCleanForce, detail) // every later git clean deletes without -f
		}
		from := len(j.hits)
		j.gitSettingWritten(e, key, value, detail)
		j.noteGitSetting(key, from)
		return
	}
	// git config --unset core.hooksPath (and git 2.46's unset) writes too
	o := programs.Parse(rest, programs.GitSub["config"])
	pos := o.Pos
	if len(pos) > 0 && pos[0] == "unset" {
		pos = pos[1:]
		o.Long["unset"] = ""
	}
	if len(pos) > 0 && isHooksPathKey(pos[0]) && o.Has(0, "unset", "unset-all") {
		j.add(RuleGitHooksPath, detail)
	}
}

// judgeAliasDefinition remembers an alias and judges what it would run.
func (j *judge) judgeAliasDefinition(e *parse.Exec, key, value, detail string) {
	if name := j.defineGitAlias(key, value); name != "" {
		j.expandGitAlias(e, nil, name, value, nil, detail)
	}
}

// maxAliasDepth bounds git alias expansion (an alias may name another).
const maxAliasDepth = 4

// defineGitAlias remembers "git config alias.NAME VALUE" so that a later
// "git NAME" in the same command is judged as what it runs. Git's alias
// names are case-insensitive. It returns the name, "" for other keys.
func (j *judge) defineGitAlias(key, value string) string {
	if len(key) <= 6 || !strings.EqualFold(key[:6], "alias.") {
		return ""
	}
	name := strings.ToLower(key[6:])
	if j.gitAliases == nil {
		j.gitAliases = map[string]string{}
	}
	j.gitAliases[name] = value
	return name
}

// gitAlias judges sub when it is a git alias known in this command (from
// -c alias.NAME=VALUE or an earlier git config): "!cmd" aliases run a
// shell command, the others expand to a git command line. It reports
// whether sub was an alias.
func (j *judge) gitAlias(e *parse.Exec, args []string, sub string, rest, cfg []string, detail string) bool {
	// -c alias.NAME=VALUE applies to this invocation only; remembering it
	// for the rest of the command is stricter, never looser.
	for _, c := range cfg {
		k, v, _ := strings.Cut(c, "=")
		j.defineGitAlias(k, v)
	}
	value, ok := j.gitAliases[strings.ToLower(sub)]
	if !ok || sub == "" || programs.GitBuiltin(sub) {
		return false // git runs its own commands, never an alias of their name
	}
	j.expandGitAlias(e, args, sub, value, rest, detail)
	return true
}

// expandGitAlias judges alias sub with value, run with args (git's whole
// command line, nil for a definition) ending in rest: a "!" alias as the
// shell command git runs, another as the git command it expands to, by
// every rule (a fresh execution, so the rules of gitcode.go and
// gitdiscard.go see it too).
func (j *judge) expandGitAlias(e *parse.Exec, args []string, sub, value string, rest []string, detail string) {
	if j.aliasDepth >= maxAliasDepth {
		// An alias chain this deep cannot be followed: judge it as code
		// that is only known at run time.
		j.add(RuleDynamicCommand, detail)
		return
	}
	j.aliasDepth++
	defer func() { j.aliasDepth-- }()
	if shell, isShell := strings.CutPrefix(value, "!"); isShell {
		src := shell
		if len(rest) > 0 {
			src += " " + strings.Join(rest, " ")
		}
		res, err := parse.Parse(src, parse.Options{Cwd: e.Dir, Home: j.home, Files: j.scriptFile}) // as gitcode.go's
		if err != nil || res == nil {
			j.add(RuleDynamicCommand, detail)
			return
		}
		for i := range res.Execs {
			j.exec(res.Execs, i)
		}
		return
	}
	words, ok := programs.GitSplitCmdline(value)
	if !ok {
		return // git refuses the alias: nothing runs
	}
	x := *e
	x.Redirects = nil // judged with the command that wrote them
	x.Argv = []parse.Word{{Value: "git", Static: true}}
	if n := len(args) - len(rest) - 1; args != nil && n >= 0 && n < len(e.Argv) {
		x.Argv = append(x.Argv, e.Argv[1:1+n]...) // git's global options before the alias
	}
	for _, w := range words {
		x.Argv = append(x.Argv, parse.Word{Value: w, Static: true})
	}
	for k, w := range rest {
		static := true
		if i := len(e.Argv) - len(rest) + k; i > 0 && args != nil {
			static = e.Argv[i].Static // $X after the alias stays what it was
		}
		x.Argv = append(x.Argv, parse.Word{Value: w, Static: static})
	}
	x.Name = "git"
	j.exec([]parse.Exec{x}, 0)
}

// gitCheckoutInto judges a command that checks files out into a work tree
// that is home or a root of its configuration (~/.config, ~/.local): the
// repository, not the command, names what lands there, as an archive's
// members do (unpackInto; a dotfile manager's pull is the same write).
func (j *judge) gitCheckoutInto(e *parse.Exec, args []string, sub string, rest []string, detail string) {
	if j.home == "" {
		return
	}
	if sub == "reset" && !programs.GitOpts(sub, rest).Has(0, "hard") {
		return // a soft or mixed reset leaves the work tree alone
	}
	dir, _ := programs.GitPlace(args)
	if dir == "" {
		dir = "."
	}
	d, ok := j.resolve(dir, e.Dir)
	if !ok {
		return
	}
	switch d {
	case j.home, j.home + "/.config", j.home + "/.local", j.home + "/.local/share":
		j.unpackInto(d, detail+" (git "+sub+" into "+d+")")
	}
}
