package programs

import "strings"

// git: its global options, the grammar of the subcommands the rules read,
// and the settings, variables and arguments through which git runs code.

// gitGlobalValued are git's global options that take the next word.
var gitGlobalValued = []string{"-C", "--git-dir", "--work-tree", "--namespace", "--exec-path",
	"--super-prefix", "--config-env", "--list-cmds"}

var _ = register(&Program{Name: "git", Kind: NonReader | SettingsCarrier | Lister | CredPrinter, PrintsCredentials: gitPrintsCredentials, Prints: gitPrints, Outputs: gitOutputs,
	Opts: S("Cc", "git-dir", "work-tree", "namespace", "exec-path", "super-prefix", "config-env", "list-cmds")})

// GitSplit splits git's global options from the subcommand. It returns
// the subcommand, its arguments and the -c key=value settings (also
// --config-env=key=ENV).
func GitSplit(args []string) (sub string, rest []string, cfg []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c":
			if i+1 < len(args) {
				cfg = append(cfg, args[i+1])
			}
			i++
		case has(gitGlobalValued, a):
			if a == "--config-env" && i+1 < len(args) {
				cfg = append(cfg, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			cfg = append(cfg, a[2:])
		case strings.HasPrefix(a, "-"):
			// --git-dir=x, --no-pager, -p, --bare, ...
			if v, ok := strings.CutPrefix(a, "--config-env="); ok {
				cfg = append(cfg, v)
			}
		default:
			return a, args[i+1:], cfg
		}
	}
	return "", nil, cfg
}

// GitSub is the option grammar of git subcommands the rules read.
var GitSub = map[string]Spec{
	"clean":      S("e", "exclude"),
	"checkout":   S("bB", "conflict", "pathspec-from-file"),
	"restore":    S("s", "source", "pathspec-from-file"),
	"switch":     S("cC", "create", "force-create"),
	"push":       S("o", "push-option", "repo", "receive-pack", "exec"),
	"update-ref": S("m"),
	"config":     S("f", "file", "blob", "type", "default", "comment", "value"),
	"commit":     S("mFCcSuX", "message", "file", "author", "date", "cleanup", "template"),
	"rebase":     S("xsX", "exec", "strategy", "strategy-option", "onto"),
	"add":        S("", "chmod", "pathspec-from-file"),
	"clone":      S("obcu", "origin", "branch", "config", "upload-pack", "depth", "template", "reference", "separate-git-dir"),
	"fetch":      S("o", "upload-pack", "depth"),
	"pull":       S("o", "upload-pack", "depth"),
	"ls-remote":  S("", "upload-pack"),
}

// GitMessageOpts give a message to the subcommands GitMessage reports
// (git commit -m TEXT, -F FILE): data, never a command.
var GitMessageOpts = []string{"-m", "--message", "-F", "--file"}

// GitMessage reports a subcommand that takes a message.
func GitMessage(sub string) bool {
	switch sub {
	case "commit", "tag", "merge", "notes", "revert", "stash", "cherry-pick":
		return true
	}
	return false
}

// GitCodeKey reports a git setting whose value is a command git runs:
// pagers, editors, ssh, credential helpers, diff/merge/filter drivers,
// fsmonitor, hooks, aliases with "!", sendemail validators. A write of one
// of these is code that runs later; -c KEY=VALUE runs it now.
func GitCodeKey(key string) bool {
	k := strings.ToLower(key)
	switch k {
	case "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.askpass",
		"core.hookspath", "core.gitproxy", "core.alternaterefscommand", "sequence.editor",
		"credential.helper", "gpg.program", "gpg.ssh.program", "gpg.x509.program",
		"diff.external", "merge.tool", "sendemail.validate", "uploadpack.packobjectshook",
		"receive.procreceiverefs", "protocol.ext.allow", "include.path", "includeif.path":
		return true
	}
	if strings.HasPrefix(k, "pager.") || strings.HasPrefix(k, "alias.") {
		return true // pager.log=..., alias.x="!sh -c ..." (aliases are also followed)
	}
	if strings.HasPrefix(k, "hook.") && strings.HasSuffix(k, ".command") {
		return true
	}
	if strings.HasPrefix(k, "credential.") && strings.HasSuffix(k, ".helper") {
		return true
	}
	if strings.HasPrefix(k, "includeif.") {
		return true // includeIf.<cond>.path loads settings from a file
	}
	// filter.X.clean/smudge/process, diff.X.textconv/command, merge.X.driver,
	// difftool.X.cmd, mergetool.X.cmd, remote.X.uploadpack/receivepack/vcs
	for _, suf := range []string{".clean", ".smudge", ".process", ".textconv", ".command", ".driver",
		".cmd", ".uploadpack", ".receivepack", ".proxy", ".helper", ".sshcommand"} {
		if strings.HasSuffix(k, suf) && strings.Count(k, ".") >= 2 {
			return true
		}
	}
	return false
}

// GitCodeEnv are environment variables through which git runs a command.
var GitCodeEnv = map[string]bool{
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_PAGER": true, "GIT_EDITOR": true,
	"GIT_SEQUENCE_EDITOR": true, "GIT_ASKPASS": true, "GIT_EXTERNAL_DIFF": true,
	"GIT_PROXY_COMMAND": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true,
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG": true,
	// GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n carry settings like -c
}

// GitCodeArgs reports subcommands that run a command given in their
// arguments: rebase --exec/-x, submodule foreach, bisect run, difftool -x,
// and ext:: remote URLs (git runs the rest as a command). It returns the
// command text when it is one argument ("" when it is the rest of args).
func GitCodeArgs(sub string, rest []string) (cmd []string, ok bool) {
	switch sub {
	case "rebase":
		for i, a := range rest {
			if (a == "-x" || a == "--exec") && i+1 < len(rest) {
				return []string{rest[i+1]}, true
			}
			if v, found := strings.CutPrefix(a, "--exec="); found {
				return []string{v}, true
			}
			if v, found := strings.CutPrefix(a, "-x"); found && v != "" {
				return []string{v}, true
			}
		}
	case "submodule":
		for i, a := range rest {
			if a == "foreach" {
				r := rest[i+1:]
				for len(r) > 0 && strings.HasPrefix(r[0], "-") {
					r = r[1:]
				}
				return r, len(r) > 0
			}
		}
	case "bisect":
		if len(rest) > 1 && rest[0] == "run" {
			return rest[1:], true
		}
	case "difftool", "mergetool":
		for i, a := range rest {
			if (a == "-x" || a == "--extcmd") && i+1 < len(rest) {
				return []string{rest[i+1]}, true
			}
		}
	}
	for _, a := range rest {
		if v, found := strings.CutPrefix(a, "ext::"); found {
			return []string{strings.ReplaceAll(v, "%S", "git-upload-pack")}, true
		}
	}
	return nil, false
}

// gitPrintsCredentials: git credential fill (and a helper's get) prints
// the stored password or token for a host.
func gitPrintsCredentials(args []string) bool {
	sub, rest, _ := GitSplit(args)
	switch {
	case sub == "credential":
		return len(rest) > 0 && (rest[0] == "fill" || rest[0] == "get")
	case strings.HasPrefix(sub, "credential-"):
		return len(rest) > 0 && rest[0] == "get"
	}
	return false
}

// gitPrints: the files whose content a git subcommand prints (or stores
// where cat-file prints it): REV:PATH of show and cat-file, the operands
// of diff --no-index, of show, diff, log -p and whatchanged -p after "--"
// (and their operands, which may be paths), blame and annotate, grep's
// paths, archive's, hash-object -w's.
func gitPrints(args []string) []string {
	sub, rest, _ := GitSplit(args)
	var ops, afterDash []string
	patch := false
	for i, a := range rest {
		if a == "--" {
			afterDash = rest[i+1:]
			break
		}
		switch {
		case a == "-p" || a == "-u" || a == "--patch" || strings.HasPrefix(a, "-L") || a == "--full-diff" || a == "--no-index":
			patch = true
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	revPaths := func(ws []string) []string {
		var out []string
		for _, w := range ws {
			if rev, p, ok := strings.Cut(w, ":"); ok && p != "" && !strings.Contains(w, "://") {
				if rev == "" && len(p) > 2 && p[1] == ':' && p[0] >= '0' && p[0] <= '3' {
					p = p[2:] // :0:.env, the index's stage 0
				}
				out = append(out, p) // HEAD:.env, :.env
			}
		}
		return out
	}
	switch sub {
	case "show", "cat-file":
		return append(append(revPaths(ops), afterDash...), ops...)
	case "diff", "blame", "annotate", "archive", "difftool":
		return append(append(revPaths(ops), afterDash...), ops...)
	case "log", "whatchanged", "format-patch":
		if patch || sub == "format-patch" {
			return append(afterDash, ops...)
		}
	case "grep":
		// the first operand is the pattern unless -e/-f gave it
		if !has(rest, "-e", "-f", "--and", "--or") && len(ops) > 0 {
			ops = ops[1:]
		}
		return append(append(revPaths(ops), afterDash...), ops...)
	case "hash-object":
		if has(rest, "-w") {
			return append(ops, afterDash...)
		}
	}
	return nil
}
