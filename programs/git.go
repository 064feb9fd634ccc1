package programs

import (
	"path"
	"strings"
)

// git: its global options, the grammar of the subcommands the rules read,
// and the settings, variables and arguments through which git runs code.

// gitGlobalValued are git's global options that take the next word.
var gitGlobalValued = []string{"-C", "--git-dir", "--work-tree", "--namespace", "--exec-path",
	"--super-prefix", "--config-env", "--list-cmds"}

var _ = register(&Program{Name: "git", Kind: NonReader | SettingsCarrier | Lister | CredPrinter, PrintsCredentials: gitPrintsCredentials, Prints: gitPrints, Outputs: gitOutputs,
	// send-email mails the files it is given, imap-send its input
	Uploads: func(a []string) bool { sub, _, _ := GitSplit(a); return sub == "send-email" || sub == "imap-send" },
	Opts:    S("Cc", "git-dir", "work-tree", "namespace", "exec-path", "super-prefix", "config-env", "list-cmds")})

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
			return a, GitExpand(a, args[i+1:]), cfg
		}
	}
	return "", nil, cfg
}

// GitExpand rewrites the abbreviated long options of git subcommand sub
// in args to the options git resolves them to: git's parse-options takes
// any unambiguous prefix of a long option (git reset --har is --hard, git
// branch --del is --delete, git push --mirr is --mirror). An ambiguous
// prefix is an error to git (nothing runs), and another git version may
// know fewer options: it is read as the first option it abbreviates, in
// git's own order (git push --forc as --force), so that no version lets it
// pass. Options after "--", values of options and operands are left
// alone. args is returned as it is when nothing is abbreviated.
func GitExpand(sub string, args []string) []string {
	opts, ok := gitLong[sub]
	if !ok {
		return args
	}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "--") || len(a) == 2 {
			if len(a) == 2 && a[0] == '-' && strings.IndexByte(GitSub[sub].Short, a[1]) >= 0 {
				i++ // -m VALUE: the value is not an option
			}
			continue
		}
		// The next word after a long option that takes one is not skipped:
		// were it a value, rewriting it could only make the call stricter.
		name, val, hasVal := strings.Cut(a[2:], "=")
		full, ok := gitLongName(opts, name)
		if !ok || full == name {
			continue
		}
		if out == nil {
			out = append([]string(nil), args...)
		}
		out[i] = "--" + full
		if hasVal {
			out[i] += "=" + val
		}
	}
	if out == nil {
		return args
	}
	return out
}

// gitLongName resolves name among a subcommand's long options (opts as in
// gitLong): an exact name, else the first option it is a prefix of.
func gitLongName(opts, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	first := ""
	for rest := opts; rest != ""; {
		var o string
		o, rest, _ = strings.Cut(rest, " ")
		o = strings.TrimSuffix(o, "=")
		if o == name {
			return o, true
		}
		if first == "" && strings.HasPrefix(o, name) {
			first = o
		}
	}
	return first, first != ""
}

// gitLong are the long options of the subcommands the rules read, in
// git's order ("=": takes a value): what git 2.39's parse-options knows,
// from `git SUB -h` (which lists the options completion hides, --force
// among them) and `git SUB --git-completion-helper`, for GitExpand.
var gitLong = map[string]string{
	"reset":          "quiet no-refresh mixed soft hard merge keep recurse-submodules patch intent-to-add pathspec-from-file= pathspec-file-nul refresh no-quiet no-mixed no-soft no-hard no-merge no-keep no-recurse-submodules no-patch no-intent-to-add no-pathspec-from-file no-pathspec-file-nul",
	"push":           "verbose quiet repo= all mirror delete tags dry-run porcelain force force-with-lease force-if-includes recurse-submodules thin receive-pack= exec= set-upstream progress prune no-verify follow-tags signed atomic push-option= ipv4 ipv6 verify no-verbose no-quiet no-repo no-all no-mirror no-delete no-tags no-dry-run no-porcelain no-force no-force-with-lease no-force-if-includes no-recurse-submodules no-receive-pack no-exec no-set-upstream no-progress no-prune no-follow-tags no-signed no-atomic no-push-option no-ipv4 no-ipv6",
	"branch":         "verbose quiet track set-upstream-to= unset-upstream color remotes contains= no-contains= abbrev all delete move copy list show-current create-reflog edit-description force merged= no-merged= column sort= points-at= ignore-case recurse-submodules format= no-verbose no-quiet no-track no-set-upstream-to no-unset-upstream no-color no-remotes no-abbrev no-all no-delete no-move no-copy no-list no-show-current no-create-reflog no-edit-description no-column no-sort no-points-at no-ignore-case no-recurse-submodules no-format",
	"clean":          "quiet dry-run force interactive exclude= no-quiet no-dry-run no-interactive",
	"checkout":       "guess overlay quiet recurse-submodules progress merge conflict= detach track force orphan= overwrite-ignore ignore-other-worktrees ours theirs patch ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul no-guess no-overlay no-quiet no-recurse-submodules no-progress no-merge no-conflict no-detach no-track no-orphan no-ignore-other-worktrees no-patch no-ignore-skip-worktree-bits no-pathspec-from-file no-pathspec-file-nul",
	"restore":        "source= staged worktree ignore-unmerged overlay quiet recurse-submodules progress merge conflict= ours theirs patch ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul no-source no-staged no-worktree no-ignore-unmerged no-overlay no-quiet no-recurse-submodules no-progress no-merge no-conflict no-patch no-ignore-skip-worktree-bits no-pathspec-from-file no-pathspec-file-nul",
	"switch":         "create= force-create= guess discard-changes quiet recurse-submodules progress merge conflict= detach track force orphan= overwrite-ignore ignore-other-worktrees no-create no-force-create no-guess no-discard-changes no-quiet no-recurse-submodules no-progress no-merge no-conflict no-detach no-track no-orphan no-ignore-other-worktrees",
	"commit":         "quiet verbose file= author= date= message= reedit-message= reuse-message= fixup squash= reset-author trailer= signoff template= edit cleanup= status gpg-sign all include interactive patch only no-verify dry-run short branch ahead-behind porcelain long null amend no-post-rewrite untracked-files pathspec-from-file= pathspec-file-nul verify post-rewrite no-quiet no-verbose no-file no-author no-date no-message no-reedit-message no-reuse-message no-fixup no-squash no-reset-author no-signoff no-template no-edit no-cleanup no-status no-gpg-sign no-all no-include no-interactive no-patch no-only no-dry-run no-short no-branch no-ahead-behind no-porcelain no-long no-null no-amend no-untracked-files no-pathspec-from-file no-pathspec-file-nul",
	"rebase":         "onto= keep-base no-verify quiet verbose no-stat signoff committer-date-is-author-date reset-author-date ignore-whitespace whitespace= force-rebase no-ff continue skip abort quit edit-todo show-current-patch apply merge interactive rerere-autoupdate empty= autosquash update-refs gpg-sign autostash exec= rebase-merges fork-point strategy= strategy-option= root reschedule-failed-exec reapply-cherry-picks verify stat ff no-onto no-keep-base no-quiet no-verbose no-signoff no-committer-date-is-author-date no-reset-author-date no-ignore-whitespace no-whitespace no-force-rebase no-rerere-autoupdate no-autosquash no-update-refs no-gpg-sign no-autostash no-exec no-rebase-merges no-fork-point no-strategy no-strategy-option no-root no-reschedule-failed-exec no-reapply-cherry-picks",
	"clone":          "verbose quiet progress reject-shallow no-checkout bare mirror local no-hardlinks shared recurse-submodules recursive jobs= template= reference= reference-if-able= dissociate origin= branch= upload-pack= depth= shallow-since= shallow-exclude= single-branch no-tags shallow-submodules separate-git-dir= config= server-option= ipv4 ipv6 filter= also-filter-submodules remote-submodules sparse bundle-uri= checkout hardlinks tags no-verbose no-quiet no-progress no-reject-shallow no-bare no-mirror no-local no-shared no-recurse-submodules no-recursive no-jobs no-template no-reference no-reference-if-able no-dissociate no-origin no-branch no-upload-pack no-depth no-shallow-since no-shallow-exclude no-single-branch no-shallow-submodules no-separate-git-dir no-config no-server-option no-ipv4 no-ipv6 no-filter no-also-filter-submodules no-remote-submodules no-sparse no-bundle-uri",
	"fetch":          "verbose quiet all set-upstream append atomic upload-pack= force multiple tags jobs= prefetch prune prune-tags recurse-submodules dry-run write-fetch-head keep update-head-ok progress depth= shallow-since= shallow-exclude= deepen= unshallow refetch update-shallow refmap= server-option= ipv4 ipv6 negotiation-tip= negotiate-only filter= auto-maintenance auto-gc show-forced-updates write-commit-graph stdin no-verbose no-quiet no-all no-set-upstream no-append no-atomic no-upload-pack no-force no-multiple no-tags no-jobs no-prefetch no-prune no-prune-tags no-recurse-submodules no-dry-run no-write-fetch-head no-keep no-update-head-ok no-progress no-depth no-shallow-since no-shallow-exclude no-deepen no-update-shallow no-server-option no-ipv4 no-ipv6 no-negotiation-tip no-negotiate-only no-filter no-auto-maintenance no-auto-gc no-show-forced-updates no-write-commit-graph no-stdin",
	"pull":           "verbose quiet progress recurse-submodules rebase stat log signoff squash commit edit cleanup= ff ff-only verify verify-signatures autostash strategy= strategy-option= gpg-sign allow-unrelated-histories all append upload-pack= force tags prune jobs dry-run keep depth= shallow-since= shallow-exclude= deepen= unshallow update-shallow refmap= server-option= ipv4 ipv6 negotiation-tip= show-forced-updates set-upstream no-verbose no-quiet no-progress no-recurse-submodules no-rebase no-stat no-log no-signoff no-squash no-commit no-edit no-cleanup no-ff no-verify no-verify-signatures no-autostash no-strategy no-strategy-option no-gpg-sign no-allow-unrelated-histories no-all no-append no-upload-pack no-force no-tags no-prune no-jobs no-dry-run no-keep no-depth no-shallow-since no-shallow-exclude no-deepen no-update-shallow no-server-option no-ipv4 no-ipv6 no-negotiation-tip no-show-forced-updates no-set-upstream",
	"config":         "global system local worktree file= blob= get get-all get-regexp get-urlmatch replace-all add unset unset-all rename-section remove-section list fixed-value edit get-color get-colorbool type= bool int bool-or-int bool-or-str path expiry-date null name-only includes show-origin show-scope default= no-global no-system no-local no-worktree no-file no-blob no-get no-get-all no-get-regexp no-get-urlmatch no-replace-all no-add no-unset no-unset-all no-rename-section no-remove-section no-list no-fixed-value no-edit no-get-color no-get-colorbool no-type no-null no-name-only no-includes no-show-origin no-show-scope no-default",
	"worktree":       "",
	"gc":             "quiet prune cruft aggressive auto force keep-largest-pack no-quiet no-prune no-cruft no-aggressive no-keep-largest-pack",
	"reflog":         "",
	"update-ref":     "no-deref stdin create-reflog deref no-stdin no-create-reflog",
	"merge":          "stat summary log squash commit edit cleanup= ff ff-only rerere-autoupdate verify-signatures strategy= strategy-option= message= file= into-name= verbose quiet abort quit continue allow-unrelated-histories progress gpg-sign autostash overwrite-ignore signoff no-verify verify no-stat no-summary no-log no-squash no-commit no-edit no-cleanup no-ff no-rerere-autoupdate no-verify-signatures no-strategy no-strategy-option no-message no-into-name no-verbose no-quiet no-abort no-quit no-continue no-allow-unrelated-histories no-progress no-gpg-sign no-autostash no-overwrite-ignore no-signoff",
	"am":             "interactive 3way quiet signoff utf8 keep keep-non-patch message-id keep-cr no-keep-cr scissors quoted-cr= whitespace= ignore-space-change ignore-whitespace directory= exclude= include= patch-format= reject resolvemsg continue resolved skip abort quit show-current-patch allow-empty committer-date-is-author-date ignore-date rerere-autoupdate gpg-sign empty= no-interactive no-3way no-quiet no-signoff no-utf8 no-keep no-keep-non-patch no-message-id no-scissors no-whitespace no-ignore-space-change no-ignore-whitespace no-directory no-exclude no-include no-patch-format no-reject no-resolvemsg no-committer-date-is-author-date no-ignore-date no-rerere-autoupdate no-gpg-sign",
	"cherry-pick":    "quit continue abort skip cleanup= no-commit edit signoff mainline= rerere-autoupdate strategy= strategy-option= gpg-sign ff allow-empty allow-empty-message keep-redundant-commits commit no-cleanup no-edit no-signoff no-mainline no-rerere-autoupdate no-strategy no-strategy-option no-gpg-sign no-ff no-allow-empty no-allow-empty-message no-keep-redundant-commits",
	"revert":         "quit continue abort skip cleanup= no-commit edit signoff mainline= rerere-autoupdate strategy= strategy-option= gpg-sign reference commit no-cleanup no-edit no-signoff no-mainline no-rerere-autoupdate no-strategy no-strategy-option no-gpg-sign no-reference",
	"tag":            "list delete verify annotate message= file= edit sign cleanup= local-user= force create-reflog column contains= no-contains= merged= no-merged= sort= points-at= format= color ignore-case no-annotate no-file no-edit no-sign no-cleanup no-local-user no-force no-create-reflog no-column no-sort no-points-at no-format no-color no-ignore-case",
	"rm":             "dry-run quiet cached force ignore-unmatch sparse pathspec-from-file= pathspec-file-nul no-dry-run no-quiet no-cached no-ignore-unmatch no-sparse no-pathspec-from-file no-pathspec-file-nul",
	"checkout-index": "all ignore-skip-worktree-bits force quiet no-create index stdin temp prefix= stage create no-all no-ignore-skip-worktree-bits no-force no-quiet no-index no-stdin no-temp no-prefix",
	"read-tree":      "index-output= empty verbose trivial aggressive reset prefix= exclude-per-directory= dry-run no-sparse-checkout debug-unpack recurse-submodules quiet sparse-checkout no-empty no-verbose no-trivial no-aggressive no-reset no-dry-run no-debug-unpack no-recurse-submodules no-quiet",
	"diff":           "patch-with-raw stat numstat patch-with-stat name-only name-status full-index abbrev= find-copies-harder pickaxe-all patch no-patch unified function-context raw shortstat dirstat cumulative dirstat-by-file check summary stat-width= stat-name-width= stat-graph-width= stat-count= compact-summary binary color ws-error-highlight= src-prefix= dst-prefix= line-prefix= no-prefix inter-hunk-context= output-indicator-new= output-indicator-old= output-indicator-context= break-rewrites find-renames irreversible-delete find-copies no-renames rename-empty follow minimal ignore-all-space ignore-space-change ignore-space-at-eol ignore-cr-at-eol ignore-blank-lines ignore-matching-lines= indent-heuristic patience histogram diff-algorithm= anchored= word-diff word-diff-regex= color-words color-moved color-moved-ws= relative text exit-code quiet ext-diff textconv ignore-submodules submodule ita-invisible-in-index ita-visible-in-index pickaxe-regex rotate-to= skip-to= find-object= diff-filter= output= no-function-context no-compact-summary no-full-index no-color no-abbrev no-find-copies-harder no-rename-empty no-follow no-minimal no-ignore-matching-lines no-indent-heuristic no-color-moved no-color-moved-ws no-relative no-text no-exit-code no-quiet no-ext-diff no-textconv",
	"add":            "dry-run verbose interactive patch edit force update renormalize intent-to-add all ignore-removal refresh ignore-errors ignore-missing sparse chmod pathspec-from-file= pathspec-file-nul no-dry-run no-verbose no-interactive no-patch no-edit no-force no-update no-renormalize no-intent-to-add no-all no-ignore-removal no-refresh no-ignore-errors no-ignore-missing no-sparse no-chmod no-pathspec-from-file no-pathspec-file-nul",
	"ls-remote":      "quiet upload-pack= tags heads refs get-url sort= exit-code symref server-option= no-quiet no-upload-pack no-tags no-heads no-refs no-get-url no-sort no-symref no-server-option",
	"apply":          "exclude= include= no-add stat numstat summary check index intent-to-add cached unsafe-paths apply 3way build-fake-ancestor= whitespace= ignore-space-change ignore-whitespace reverse unidiff-zero reject allow-overlap verbose quiet inaccurate-eof recount directory= allow-empty add no-stat no-numstat no-summary no-check no-index no-intent-to-add no-cached no-apply no-3way no-build-fake-ancestor no-whitespace no-ignore-space-change no-ignore-whitespace no-reverse no-unidiff-zero no-reject no-allow-overlap no-verbose no-quiet no-inaccurate-eof no-recount no-directory no-allow-empty",
	"mv":             "verbose dry-run force sparse no-verbose no-dry-run no-sparse",
	"send-pack":      "receive-pack= exec= remote= all dry-run mirror porcelain quiet stateless-rpc stdin helper-status thin force signed push-option= progress atomic force-with-lease force-if-includes",
	"replace":        "list delete edit force raw format= graft convert-graft-file",
	"prune":          "dry-run verbose progress expire= exclude-promisor-objects no-dry-run no-verbose no-progress no-expire no-exclude-promisor-objects",
}

// GitSub is the option grammar of git subcommands the rules read (a
// subcommand missing here takes no option with a value).
var GitSub = map[string]Spec{
	"clean":      S("e", "exclude"),
	"checkout":   S("bB", "conflict", "pathspec-from-file"),
	"restore":    S("s", "source", "pathspec-from-file"),
	"switch":     S("cC", "create", "force-create"),
	"push":       S("o", "push-option", "repo", "receive-pack", "exec"),
	"update-ref": S("m"),
	"config":     S("f", "file", "blob", "type", "default", "comment", "value"),
	"commit":     {Short: "mFCcX", Long: []string{"message", "file", "author", "date", "cleanup", "template"}, Optional: "Su"},
	"rebase":     S("xsX", "exec", "strategy", "strategy-option", "onto"),
	"add":        S("", "chmod", "pathspec-from-file"),
	"clone":      S("obcu", "origin", "branch", "config", "upload-pack", "depth", "template", "reference", "separate-git-dir"),
	"fetch":      S("o", "upload-pack", "depth"),
	"pull":       S("o", "upload-pack", "depth"),
	"ls-remote":  S("", "upload-pack"),
	// The subcommands gitdiscard.go reads for ref moves and forced
	// overwrites: checkout-index --prefix and --stage take a value.
	"checkout-index": S("", "prefix", "stage"),
	"symbolic-ref":   S("m"),
	"branch":         S("u", "set-upstream-to", "contains", "no-contains", "merged", "no-merged", "sort", "points-at", "format"),
	"tag":            S("mFu", "message", "file", "local-user", "contains", "no-contains", "merged", "no-merged", "sort", "points-at", "format", "cleanup"),
	"for-each-ref":   S("", "format", "sort", "count", "points-at", "merged", "no-merged", "contains", "no-contains"),
	"send-pack":      S("", "receive-pack", "exec", "remote", "push-option"),
	"worktree":       S("bB", "reason"),
}

// GitNoVerifySpec is the grammar that finds --no-verify and commit's -n
// among the options of the subcommands that run hooks (commit, push,
// merge, am, rebase, cherry-pick, revert, pull): commit's, so that a
// message given with -m is never read as an option.
var GitNoVerifySpec = GitSub["commit"]

// GitOpts splits the arguments of git subcommand sub with its grammar.
func GitOpts(sub string, rest []string) Opts { return Parse(rest, GitSub[sub]) }

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
		"receive.procreceiverefs", "protocol.ext.allow", "include.path", "includeif.path",
		// run by git add -p, ssh signing, send-email; a template directory's
		// hooks are copied into every repository init or clone makes
		"interactive.difffilter", "gpg.ssh.defaultkeycommand", "sendemail.sendmailcmd", "sendemail.tocmd",
		"sendemail.cccmd", "init.templatedir", "instaweb.httpd", "web.browser":
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
			return []string{quoteArgv(rest[1:])}, true // an argv: sh -c 'rm -rf ~' keeps its one word
		}
	case "grep":
		// -O[PAGER] / --open-files-in-pager[=PAGER]: the matching files are
		// opened with PAGER, run by a shell (its value is stuck to it)
		for _, a := range rest {
			if a == "--" {
				break
			}
			if v, found := strings.CutPrefix(a, "--open-files-in-pager="); found && v != "" {
				return []string{v}, true
			}
			if v, found := strings.CutPrefix(a, "-O"); found && v != "" {
				return []string{v}, true
			}
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
	case "send-email":
		return append(ops, afterDash...) // the patches (or any files) it mails
	case "hash-object":
		if has(rest, "-w") {
			return append(ops, afterDash...)
		}
	}
	return nil
}

// GitSetting is one setting of a git config file: the key as git names it
// (section and name lower case, a subsection as written: alias.sync,
// filter.lfs.clean, includeif.gitdir:~/w/.path) and its value.
type GitSetting struct{ Key, Value string }

// GitConfigParse reads the text of a git config file as git's config
// parser does: [section], [section "sub"], [section.sub], name = value,
// a name alone (true), quotes, escapes, comments and continued lines. A
// line git cannot read makes git stop (every command fails, nothing runs):
// what came before it is returned.
func GitConfigParse(text string) []GitSetting {
	var out []GitSetting
	section := ""
	for i, n := 0, len(text); i < n; {
		c := text[i]
		switch {
		case c == '\n' || c == '\r' || c == ' ' || c == '\t' || c == '\f' || c == '\v':
			i++
		case c == '#' || c == ';':
			i = gitLineEnd(text, i)
		case c == '[':
			s, next, ok := gitSection(text, i+1)
			if !ok {
				return out
			}
			section, i = s, next
		case gitNameByte(c):
			j := i
			for j < n && gitNameByte(text[j]) {
				j++
			}
			name := strings.ToLower(text[i:j])
			for j < n && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			value := "true"
			if j < n && text[j] == '=' {
				var ok bool
				if value, j, ok = gitValue(text, j+1); !ok {
					return out
				}
			} else if j < n && text[j] != '\n' && text[j] != '\r' && text[j] != '#' && text[j] != ';' {
				return out
			}
			if section == "" {
				return out // a setting before any section: git refuses the file
			}
			out = append(out, GitSetting{Key: section + "." + name, Value: value})
			i = j
		default:
			return out
		}
	}
	return out
}

func gitNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

func gitLineEnd(text string, i int) int {
	for i < len(text) && text[i] != '\n' {
		i++
	}
	return i
}

// gitSection reads a section header after its '[': the section's name
// (lower case) and subsection, and the index after ']'.
func gitSection(text string, i int) (string, int, bool) {
	j := i
	for j < len(text) && (gitNameByte(text[j]) || text[j] == '.') {
		j++
	}
	name := strings.ToLower(text[i:j])
	if name == "" || j >= len(text) {
		return "", 0, false
	}
	if text[j] == ']' {
		return name, j + 1, true // [section] or the old [section.sub], both lower case
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	if j >= len(text) || text[j] != '"' {
		return "", 0, false
	}
	var sub strings.Builder
	for j++; j < len(text); j++ {
		switch c := text[j]; c {
		case '\n':
			return "", 0, false
		case '\\':
			if j+1 < len(text) {
				j++
				sub.WriteByte(text[j])
			}
		case '"':
			if j+1 < len(text) && text[j+1] == ']' {
				return name + "." + sub.String(), j + 2, true
			}
			return "", 0, false
		default:
			sub.WriteByte(c)
		}
	}
	return "", 0, false
}

// gitValue reads a value after its '=': quotes join, whitespace outside
// them is trimmed at the ends and kept as one space per character inside,
// \n \t \b \" \\ escape, a backslash before the newline continues the line,
// # and ; outside quotes start a comment.
func gitValue(text string, i int) (string, int, bool) {
	var b strings.Builder
	quote := false
	space := 0
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			if quote {
				return "", i, false
			}
			return b.String(), i, true
		case !quote && (c == '#' || c == ';'):
			return b.String(), gitLineEnd(text, i), true
		case !quote && (c == ' ' || c == '\t' || c == '\r'):
			if b.Len() > 0 {
				space++
			}
			continue
		}
		for ; space > 0; space-- {
			b.WriteByte(' ')
		}
		switch c {
		case '\\':
			if i+1 >= len(text) {
				return "", i + 1, false
			}
			i++
			switch e := text[i]; e {
			case '\n':
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case '"', '\\':
				b.WriteByte(e)
			default:
				return "", i, false // git: bad escape
			}
		case '"':
			quote = !quote
		default:
			b.WriteByte(c)
		}
	}
	if quote {
		return "", i, false
	}
	return b.String(), i, true
}

// GitConfigPath reports a file git reads its settings from, by the shape
// of its path: a repository's config (and config.worktree, a submodule's
// under .git/modules), ~/.gitconfig and any .gitconfig, the XDG
// ~/.config/git/config, /etc/gitconfig. Files named by include.path or
// GIT_CONFIG_GLOBAL have any name: the setting that names them is judged.
func GitConfigPath(p string) bool {
	base := path.Base(p)
	switch {
	case base == ".gitconfig" || p == "/etc/gitconfig":
		return true
	case base == "config" && strings.HasSuffix(path.Dir(p), "/.config/git"):
		return true
	case base == "config" || base == "config.worktree":
		for d := path.Dir(p); d != "/" && d != "." && d != ""; d = path.Dir(d) {
			if path.Base(d) == ".git" {
				return true
			}
		}
	}
	return false
}

// GitConfigSet is the setting a `git config` command line writes (the
// arguments after "config"): KEY VALUE, `set KEY VALUE` (git 2.46), with
// --add, --replace-all, a scope or --file. ok is false for reads, unsets,
// --edit and lists.
func GitConfigSet(rest []string) (key, value string, ok bool) {
	o := Parse(rest, GitSub["config"])
	if o.Has('l', "list", "get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool",
		"unset", "unset-all", "rename-section", "remove-section", "edit", "show-origin") || o.Short['e'] {
		return "", "", false
	}
	pos := o.Pos
	if len(pos) > 0 {
		switch pos[0] {
		case "set":
			pos = pos[1:]
		case "get", "list", "unset", "rename-section", "remove-section", "edit":
			return "", "", false
		}
	}
	if len(pos) < 2 {
		return "", "", false
	}
	return pos[0], pos[1], true
}

// GitConfigParameters reads GIT_CONFIG_PARAMETERS as git does: settings
// each in single quotes, 'key=value' or 'key'='value', separated by
// spaces; \' is a quote inside. Malformed text makes git fail.
func GitConfigParameters(v string) []string {
	var out []string
	var cur strings.Builder
	in, got := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\'':
			in, got = !in, true
		case in:
			cur.WriteByte(c)
		case c == '\\' && i+1 < len(v):
			i++
			cur.WriteByte(v[i])
		case c == ' ' || c == '\t' || c == '\n':
			if got {
				out = append(out, cur.String())
				cur.Reset()
				got = false
			}
		default:
			cur.WriteByte(c) // the = between 'key'='value'
			got = true
		}
	}
	if got {
		out = append(out, cur.String())
	}
	return out
}

// GitSubSettings are the settings a subcommand's own options give git:
// clone -c/--config KEY=VALUE writes them into the new repository, where
// the checkout that ends the clone already reads them (filters, fsmonitor,
// hooksPath).
func GitSubSettings(sub string, rest []string) []string {
	if sub != "clone" {
		return nil
	}
	var out []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			return out
		case (a == "-c" || a == "--config") && i+1 < len(rest):
			out = append(out, rest[i+1])
			i++
		case strings.HasPrefix(a, "--config="):
			out = append(out, strings.TrimPrefix(a, "--config="))
		case strings.HasPrefix(a, "-c") && len(a) > 2 && a[1] == 'c':
			out = append(out, a[2:])
		}
	}
	return out
}

// GitPackCommands are the commands a transport option hands git to run:
// clone/fetch/pull/ls-remote --upload-pack (clone -u), push --receive-pack
// and --exec. For a local or ssh remote git runs them (through a shell
// when they hold more than a name), for ssh on the remote host.
func GitPackCommands(sub string, rest []string) []string {
	var names []string
	short := ""
	switch sub {
	case "clone":
		names, short = []string{"upload-pack"}, "-u"
	case "fetch", "pull", "ls-remote", "archive":
		names = []string{"upload-pack", "exec"}
	case "push", "send-pack":
		names = []string{"receive-pack", "exec"}
	default:
		return nil
	}
	var out []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			break
		}
		if short != "" && a == short && i+1 < len(rest) {
			out = append(out, rest[i+1])
			i++
			continue
		}
		if short != "" && strings.HasPrefix(a, short) && len(a) > 2 {
			out = append(out, a[2:])
			continue
		}
		for _, n := range names {
			if v, ok := strings.CutPrefix(a, "--"+n+"="); ok {
				out = append(out, v)
			} else if a == "--"+n && i+1 < len(rest) {
				out = append(out, rest[i+1])
				i++
			}
		}
	}
	return out
}

// GitBuiltin reports a git command that git runs itself: an alias of the
// same name is never used (git runs builtins first, then git-NAME on the
// exec path, then an alias).
func GitBuiltin(sub string) bool {
	_, ok := gitBuiltins[sub]
	return ok
}

var gitBuiltins = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, s := range strings.Fields(`add am annotate apply archive bisect blame branch bugreport bundle
		cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry
		cherry-pick clean clone column commit commit-graph commit-tree config count-objects credential
		credential-cache credential-store describe diagnose diff diff-files diff-index diff-tree difftool
		fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo
		format-patch fsck fsmonitor--daemon gc get-tar-commit-id grep hash-object help hook index-pack init
		interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base
		merge-file merge-index merge-one-file merge-tree mktag mktree multi-pack-index mv name-rev notes
		pack-objects pack-redundant pack-refs patch-id prune prune-packed pull push range-diff read-tree
		rebase receive-pack reflog refs remote repack replace replay rerere reset restore rev-list
		rev-parse revert rm send-pack shortlog show show-branch show-index show-ref sparse-checkout stash
		status stripspace submodule switch symbolic-ref tag unpack-file unpack-objects update-index
		update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag
		version whatchanged worktree write-tree init-db gui gitk instaweb request-pull send-email
		mergetool p4 svn cvsimport quiltimport subtree lfs`) {
		m[s] = struct{}{}
	}
	return m
}()

// GitPlace is where git's global options send it: the directory -C
// leads to (each -C relative to the one before) and --git-dir ("" when
// not given).
func GitPlace(args []string) (dir, gitDir string) {
	dir, gitDir, _ = gitGlobals(args)
	return dir, gitDir
}

// gitGlobals are the places git's global options name: -C (joined), --git-dir,
// --work-tree.
func gitGlobals(args []string) (dir, gitDir, workTree string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--work-tree" && i+1 < len(args):
			workTree = args[i+1]
			i++
		case strings.HasPrefix(a, "--work-tree="):
			workTree = strings.TrimPrefix(a, "--work-tree=")
		case a == "-C" && i+1 < len(args):
			if d := args[i+1]; d != "" {
				if dir != "" && !strings.HasPrefix(d, "/") {
					d = path.Join(dir, d)
				}
				dir = d
			}
			i++
		case a == "--git-dir" && i+1 < len(args):
			gitDir = args[i+1]
			i++
		case strings.HasPrefix(a, "--git-dir="):
			gitDir = strings.TrimPrefix(a, "--git-dir=")
		case has(gitGlobalValued, a) || a == "-c":
			i++
		case !strings.HasPrefix(a, "-"):
			return dir, gitDir, workTree
		}
	}
	return dir, gitDir, workTree
}

// GitSplitCmdline splits an alias's value into words as git does
// (split_cmdline): single and double quotes, backslash escapes. An
// unclosed quote is an error to git (the alias does not run).
func GitSplitCmdline(s string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n'):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\\' && quote != '\'' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case quote == 0 && (c == '\'' || c == '"'):
			quote, in = c, true
		case c == quote:
			quote = 0
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		out = append(out, cur.String())
	}
	return out, true
}

// PatchFile reports a program that applies a patch file to the work tree
// and what it is given: the patch (""/"-": stdin), the directory the
// names are relative to, and how many leading components are stripped
// (-1: patch's default). git apply --check/--stat/--numstat/--summary and
// --cached write no work-tree file; patch --dry-run neither.
func PatchFile(name string, args []string) (file, dir string, strip int, ok bool) {
	switch Canon(name) {
	case "git":
		sub, rest, _ := GitSplit(args)
		if sub != "apply" {
			return "", "", 0, false
		}
		o := Parse(rest, S("p", "directory", "exclude", "include", "whitespace", "build-fake-ancestor"))
		if o.Has(0, "check", "stat", "numstat", "summary", "cached") && !o.Has(0, "apply") {
			return "", "", 0, false
		}
		strip = 1
		if v := o.Value('p'); v != "" {
			strip = atoiOr(v, 1)
		}
		if len(o.Pos) > 0 {
			file = o.Pos[0]
		}
		return file, o.Value(0, "directory"), strip, true
	case "patch":
		o := Parse(args, S("pidoBrDFgVYzx", "strip", "input", "directory", "output", "prefix", "reject-file", "backup-if-mismatch", "fuzz", "version-control", "suffix"))
		if o.Has(0, "dry-run") {
			return "", "", 0, false
		}
		strip = -1
		if v := o.Value('p', "strip"); v != "" {
			strip = atoiOr(v, -1)
		}
		file = o.Value('i', "input")
		if file == "" && len(o.Pos) > 1 {
			file = o.Pos[1] // patch ORIGFILE PATCHFILE
		}
		return file, o.Value('d', "directory"), strip, true
	}
	return "", "", 0, false
}

func atoiOr(s string, def int) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	if s == "" {
		return def
	}
	return n
}

// PatchNames are the file names a unified or git patch changes, as
// written (a/ and b/ prefixes kept: -p strips them): the +++ and ---
// lines (not /dev/null), diff --git's names, rename and copy targets.
func PatchNames(text string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		n = strings.TrimSpace(n)
		if i := strings.IndexByte(n, '\t'); i >= 0 {
			n = n[:i] // +++ b/x\t2026-01-01 ...: a timestamp follows
		}
		n = strings.Trim(n, "\"")
		if n == "" || n == "/dev/null" || seen[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			add(line[4:])
		case strings.HasPrefix(line, "diff --git "):
			for _, f := range strings.Fields(line[len("diff --git "):]) {
				add(f)
			}
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			_, n, _ := strings.Cut(line, " to ")
			add("b/" + n)
		}
		if len(out) >= 1024 {
			break
		}
	}
	return out
}
