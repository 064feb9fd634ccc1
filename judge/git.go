package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
)

// gitGlobal splits git's global options from the subcommand. It returns
// the subcommand, its arguments and the -c key=value settings.
func gitGlobal(args []string) (sub string, rest []string, cfg []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" ||
			a == "--exec-path" || a == "--super-prefix" || a == "--config-env" || a == "--list-cmds":
			i++
		case a == "-c":
			if i+1 < len(args) {
				cfg = append(cfg, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			cfg = append(cfg, a[2:])
		case strings.HasPrefix(a, "-"):
			// --git-dir=x, --no-pager, -p, --bare, ...
			if strings.HasPrefix(a, "--config-env=") {
				cfg = append(cfg, strings.TrimPrefix(a, "--config-env="))
			}
		default:
			return a, args[i+1:], cfg
		}
	}
	return "", nil, cfg
}

func isHooksPathKey(k string) bool {
	k, _, _ = strings.Cut(k, "=")
	return strings.EqualFold(k, "core.hooksPath")
}

// git judges one git invocation.
func (j *judge) git(e *parse.Exec, args []string, detail string) {
	sub, rest, cfg := gitGlobal(args)
	for _, c := range cfg {
		if isHooksPathKey(c) {
			j.add(RuleGitHooksPath, detail)
		}
	}
	for _, a := range e.Assigns {
		if (a.Name == "HUSKY" && a.Value.Value == "0") || a.Name == "HUSKY_SKIP_HOOKS" {
			if sub == "commit" || sub == "push" || sub == "merge" {
				j.add(RuleGitNoVerify, detail)
			}
		}
	}
	if j.gitAlias(e, sub, rest, cfg, detail) {
		return
	}
	switch sub {
	case "reset":
		o := parseOpts(rest, "")
		if o.Has(0, "hard") {
			j.add(RuleGitResetHard, detail)
		}
	case "stash":
		if len(rest) > 0 && (rest[0] == "drop" || rest[0] == "clear") {
			j.add(RuleGitStashDrop, detail)
		}
	case "clean":
		o := parseOpts(rest, "e", "exclude")
		if o.Has('f', "force") && !o.Has('n', "dry-run") && !o.Has('i', "interactive") {
			j.add(RuleGitCleanForce, detail)
		}
	case "checkout":
		o := parseOpts(rest, "bB", "conflict", "pathspec-from-file")
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
		o := parseOpts(rest, "s", "source", "pathspec-from-file")
		staged := o.Has('S', "staged")
		worktree := o.Has('W', "worktree")
		if (!staged || worktree) && !o.Has('p', "patch") && (len(o.Pos) > 0 || o.Has(0, "pathspec-from-file")) {
			j.add(RuleGitRestore, detail)
		}
	case "switch":
		o := parseOpts(rest, "cC", "create", "force-create")
		if o.Has('f', "force", "discard-changes") {
			j.add(RuleGitSwitchDiscard, detail)
		}
	case "push":
		j.gitPush(rest, detail)
	case "branch":
		o := parseOpts(rest, "")
		if o.Short['D'] || (o.Has('d', "delete") && o.Has('f', "force")) {
			j.add(RuleGitBranchForceDel, detail)
		}
	case "reflog":
		if len(rest) > 0 && (rest[0] == "expire" || rest[0] == "delete") {
			j.add(RuleGitReflogExpire, detail)
		}
	case "gc":
		o := parseOpts(rest, "")
		if v, ok := o.Long["prune"]; ok && (v == "now" || v == "all") {
			j.add(RuleGitReflogExpire, detail)
		}
	case "prune":
		o := parseOpts(rest, "")
		if !o.Has('n', "dry-run") {
			j.add(RuleGitReflogExpire, detail)
		}
	case "filter-branch", "filter-repo":
		j.add(RuleGitFilterBranch, detail)
	case "update-ref":
		o := parseOpts(rest, "m")
		if o.Has('d') {
			j.add(RuleGitUpdateRefDelete, detail)
		}
	case "worktree":
		if len(rest) > 0 && rest[0] == "remove" {
			o := parseOpts(rest[1:], "")
			if o.Has('f', "force") {
				j.add(RuleGitWorktreeRemove, detail)
			}
		}
	case "read-tree":
		o := parseOpts(rest, "")
		if o.Has(0, "reset") {
			j.add(RuleGitReadTreeReset, detail)
		}
	case "config":
		j.gitConfig(e, rest, detail)
	}
	switch sub {
	case "commit", "push", "merge", "am", "rebase", "cherry-pick", "revert", "pull":
		o := parseOpts(rest, "mFCcSuX", "message", "file", "author", "date", "cleanup", "template")
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
	o := parseOpts(rest, "o", "push-option", "repo", "receive-pack", "exec")
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
	o := parseOpts(rest, "f", "file", "blob", "type", "default", "comment", "value")
	if o.Has('l', "list", "get", "get-all", "get-regexp", "get-urlmatch", "show-origin") {
		return
	}
	pos := o.Pos
	// An alias is judged where it is defined as well as where it is used:
	// a --global alias outlives this command, and a later "git nuke" in
	// another call would not show what it runs.
	if len(pos) > 2 && pos[0] == "set" {
		j.judgeAliasDefinition(e, pos[1], pos[2], detail)
	} else if len(pos) > 1 {
		j.judgeAliasDefinition(e, pos[0], pos[1], detail)
	}
	if len(pos) > 0 && (pos[0] == "set" || pos[0] == "unset") {
		// git 2.46+: git config set KEY VALUE / unset KEY
		if len(pos) > 1 && isHooksPathKey(pos[1]) {
			j.add(RuleGitHooksPath, detail)
		}
		return
	}
	if len(pos) == 0 || !isHooksPathKey(pos[0]) {
		return
	}
	// plain "git config core.hooksPath" reads; a value or --unset writes.
	if len(pos) > 1 || o.Has(0, "unset", "unset-all", "add", "replace-all") {
		j.add(RuleGitHooksPath, detail)
	}
}

// judgeAliasDefinition remembers an alias and judges what it would run.
func (j *judge) judgeAliasDefinition(e *parse.Exec, key, value, detail string) {
	if name := j.defineGitAlias(key, value); name != "" {
		j.gitAlias(e, name, nil, nil, detail)
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
func (j *judge) gitAlias(e *parse.Exec, sub string, rest, cfg []string, detail string) bool {
	// -c alias.NAME=VALUE applies to this invocation only; remembering it
	// for the rest of the command is stricter, never looser.
	for _, c := range cfg {
		k, v, _ := strings.Cut(c, "=")
		j.defineGitAlias(k, v)
	}
	value, ok := j.gitAliases[strings.ToLower(sub)]
	if !ok || sub == "" {
		return false
	}
	if j.aliasDepth >= maxAliasDepth {
		// An alias chain this deep cannot be followed: judge it as code
		// that is only known at run time.
		j.add(RuleDynamicCommand, detail)
		return true
	}
	j.aliasDepth++
	defer func() { j.aliasDepth-- }()
	if shell, isShell := strings.CutPrefix(value, "!"); isShell {
		src := shell
		if len(rest) > 0 {
			src += " " + strings.Join(rest, " ")
		}
		res, err := parse.Parse(src, parse.Options{Cwd: e.Dir, Home: j.home})
		if err != nil || res == nil {
			j.add(RuleDynamicCommand, detail)
			return true
		}
		for i := range res.Execs {
			j.exec(res.Execs, i)
		}
		return true
	}
	j.git(e, append(strings.Fields(value), rest...), detail)
	return true
}
