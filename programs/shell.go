package programs

import (
	"slices"
	"strings"
)

// Shells: they run -c STRING, a script operand, or what they read on stdin.
// -o/-O take a value (set -o pipefail); --rcfile/--init-file take a file.
var shellSpec = S("oO", "rcfile", "init-file")

// -n (noexec) reads the script and checks its syntax without running it;
// fish's is -n too (--no-execute).
var _ = register(
	&Program{Name: "bash", Names: []string{"rbash", "osh"}, Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "sh", Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "zsh", Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "dash", Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "ksh", Names: []string{"mksh", "pdksh", "oksh"}, Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "ash", Names: []string{"yash", "posh"}, Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	// fish -C CMD (--init-command) runs CMD before the rest
	&Program{Name: "fish", Kind: Shell, Opts: S("", "command").Runs("C", RunsShell, "init-command", RunsShell), Inline: "c", Check: "n", CheckLong: []string{"no-execute"}},
	&Program{Name: "csh", Names: []string{"tcsh"}, Kind: Shell, Inline: "c"},
	// Windows shells (WSL, Git Bash, Cygwin, a Windows runner): cmd /c and
	// powershell -Command are their -c. Their verbs are judged in judge.
	&Program{Name: "cmd", Kind: Shell, Lang: "cmd"},
	&Program{Name: "powershell", Names: []string{"pwsh"}, Kind: Shell, Lang: "powershell"},
)

// Linters of shell scripts read their operands (and print lines of them);
// they run nothing.
var _ = register(
	&Program{Name: "shellcheck", Names: []string{"checkbashisms", "bashate"}, Kind: Reader, Opts: S("efioPsSW", "color", "exclude", "enable", "format", "include", "shell", "severity", "source-path", "wiki-link-count")},
)

// ShellSyntax reports the shells whose -c string and stdin are POSIX-like
// shell source that package parse can read (not cmd or PowerShell).
func ShellSyntax(name string) bool {
	p := Lookup(name)
	return p.Is(Shell) && p.Lang == ""
}

// Programs that print shell setup code meant to be evaluated
// (eval "$(pyenv init -)"): running their output is well-known setup, not
// code from elsewhere. gh, kubectl and helm are here through their own
// tables (completion scripts).
var _ = register(
	&Program{Name: "ssh-agent", Kind: EnvSetup},
	&Program{Name: "pyenv", Kind: EnvSetup},
	&Program{Name: "rbenv", Kind: EnvSetup},
	&Program{Name: "nodenv", Kind: EnvSetup},
	&Program{Name: "direnv", Kind: EnvSetup | Runner}, // direnv exec DIR CMD: launchers.go
	&Program{Name: "brew", Kind: EnvSetup | PkgManager, Installs: []string{"install"}, InstallRunsCode: true},
	&Program{Name: "conda", Names: []string{"mamba", "micromamba"}, Kind: EnvSetup | PkgManager, Installs: []string{"install"}, InstallRunsCode: true,
		Launch: launchAfterSub("run", 0, S("np", "name", "prefix", "cwd"))},
	&Program{Name: "fnm", Kind: EnvSetup},
	&Program{Name: "zoxide", Kind: EnvSetup},
	&Program{Name: "starship", Kind: EnvSetup},
	&Program{Name: "opam", Kind: EnvSetup},
	&Program{Name: "dircolors", Kind: EnvSetup},
	&Program{Name: "keychain", Kind: EnvSetup},
	&Program{Name: "gpg-agent", Kind: EnvSetup},
	&Program{Name: "jenv", Kind: EnvSetup},
	&Program{Name: "goenv", Kind: EnvSetup},
	&Program{Name: "mise", Names: []string{"rtx"}, Kind: EnvSetup | Runner}, // mise exec|x TOOLS -- CMD: launchers.go
	&Program{Name: "asdf", Kind: EnvSetup | Runner},
	&Program{Name: "thefuck", Kind: EnvSetup},
	&Program{Name: "register-python-argcomplete", Kind: EnvSetup},
	&Program{Name: "luarocks", Kind: EnvSetup},
	&Program{Name: "rustup", Kind: EnvSetup},
	&Program{Name: "nvm", Kind: EnvSetup},
	&Program{Name: "volta", Kind: EnvSetup},
	&Program{Name: "pipenv", Kind: EnvSetup | TaskRunner, Launch: launchAfterSub("run", 0, S(""))},
	&Program{Name: "poetry", Kind: EnvSetup | PkgManager | TaskRunner, Installs: []string{"add", "install"}, InstallRunsCode: true,
		Launch: launchAfterSub("run", 0, S("C", "directory", "project"))},
	&Program{Name: "atuin", Kind: EnvSetup},
	&Program{Name: "mcfly", Kind: EnvSetup},
	&Program{Name: "oh-my-posh", Kind: EnvSetup},
)

// EnvCode says how an environment variable's value runs (issue 19 class
// 4), from the table envCode: "shell", shell code a shell runs
// (PROMPT_COMMAND before every prompt; PS0, PS1, PS2, PS4 expand $(...)
// when shown); "source", a file bash or sh sources when it starts
// (BASH_ENV, ENV); "command", a command line programs start (PAGER,
// EDITOR, BROWSER, the askpass helpers, LESSOPEN's |CMD %s); "program", a
// program or command line the tool that reads it runs (RUSTC_WRAPPER, CC,
// KUBE_EDITOR, npm_config_script_shell, a cargo target's runner: a
// dynamic value is an everyday compiler name, not asked); "node", node
// options (NODE_OPTIONS: --require/--import FILE or data: code, --inspect);
// "perl", Perl code (PERL5DB); "lua", Lua code or @FILE (LUA_INIT); "ex",
// vi commands run at start (VIMINIT, EXINIT); "" for the rest. Git's own
// variables are GitCodeEnv's; the variables that stand for one program's
// options (MAKEFLAGS, TAR_OPTIONS, GOFLAGS) are EnvOptions'.
func EnvCode(name string) string {
	if k, ok := envCode[name]; ok {
		return k
	}
	if strings.HasPrefix(name, "CARGO_TARGET_") && strings.HasSuffix(name, "_RUNNER") {
		return "program" // CARGO_TARGET_<TRIPLE>_RUNNER runs every built binary
	}
	return ""
}

var envCode = map[string]string{
	"PROMPT_COMMAND": "shell", "PS0": "shell", "PS1": "shell", "PS2": "shell", "PS4": "shell",
	"BASH_ENV": "source", "ENV": "source",
	"PAGER": "command", "MANPAGER": "command", "SYSTEMD_PAGER": "command", "EDITOR": "command", "VISUAL": "command",
	"BROWSER": "command", "SUDO_ASKPASS": "command", "SSH_ASKPASS": "command", "LESSOPEN": "command",
	"LESSCLOSE": "command", "DIFFPROG": "command", "TERMINAL": "command",
	"KUBE_EDITOR": "program", "HGEDITOR": "program", "SVN_EDITOR": "program", "FCEDIT": "program", "SYSTEMD_EDITOR": "program",
	"HG_PAGER": "program", "BAT_PAGER": "program", "DELTA_PAGER": "program", "GH_PAGER": "program", "GH_EDITOR": "program",
	"GH_BROWSER": "program", "PSQL_PAGER": "program", "PSQL_EDITOR": "program", "MYSQL_PAGER": "program",
	"AWS_PAGER": "program", "SUDO_EDITOR": "program",
	"RUSTC_WRAPPER": "program", "RUSTC_WORKSPACE_WRAPPER": "program", "RUSTC": "program", "RUSTDOC": "program",
	"CARGO_BUILD_RUSTC_WRAPPER": "program", "CARGO_BUILD_RUSTC": "program",
	"CC": "program", "CXX": "program", "CPP": "program", "LD": "program", "AR": "program", "FC": "program",
	"CMAKE_C_COMPILER_LAUNCHER": "program", "CMAKE_CXX_COMPILER_LAUNCHER": "program",
	"npm_config_script_shell": "program", "NPM_CONFIG_SCRIPT_SHELL": "program", "YARN_SCRIPT_SHELL": "program",
	"RSYNC_RSH": "program", "RSYNC_CONNECT_PROG": "program", "CVS_RSH": "program", "GPG_TTY_PROGRAM": "program",
	"NODE_OPTIONS": "node", "npm_config_node_options": "node", "NPM_CONFIG_NODE_OPTIONS": "node",
	"PERL5DB":  "perl",
	"LUA_INIT": "lua", "LUA_INIT_5_1": "lua", "LUA_INIT_5_2": "lua", "LUA_INIT_5_3": "lua", "LUA_INIT_5_4": "lua",
	"VIMINIT": "ex", "EXINIT": "ex", "GVIMINIT": "ex",
}

// EnvCodeText is the shell text that running the value amounts to, or ""
// when it runs nothing readable (PS1 without a substitution).
func EnvCodeText(name, value string) string {
	switch EnvCode(name) {
	case "shell":
		if name != "PROMPT_COMMAND" && !strings.Contains(value, "$(") && !strings.Contains(value, "`") {
			return ""
		}
		if name != "PROMPT_COMMAND" {
			return "echo " + value // the prompt is expanded, its substitutions run
		}
		return value
	case "source":
		if value == "" {
			return ""
		}
		return ". " + shellQuote(value)
	case "command", "program":
		v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(value), "|"))
		v = strings.ReplaceAll(v, "%s", "FILE")
		return v
	case "node":
		return nodeOptionsText(value)
	case "perl":
		if strings.TrimSpace(value) == "" {
			return ""
		}
		return "perl -e " + shellQuote(value)
	case "lua":
		if strings.HasPrefix(value, "@") || strings.TrimSpace(value) == "" {
			return "" // @FILE: a file loaded (EnvLoads)
		}
		return "lua -e " + shellQuote(value)
	case "ex":
		if strings.TrimSpace(value) == "" {
			return ""
		}
		return "vim -c " + shellQuote(value)
	}
	return ""
}

// nodeOptionsText: what node options run: the files --require, -r,
// --import and --loader load first (node FILE), the code of a data: URL
// they import (node -e CODE), an --inspect address (node --inspect=ADDR).
func nodeOptionsText(value string) string {
	f := nodeFields(value)
	var out []string
	load := func(v string) {
		if js, ok := strings.CutPrefix(v, "data:text/javascript,"); ok {
			out = append(out, "node -e "+shellQuote(js))
			return
		}
		out = append(out, "node "+shellQuote(v))
	}
	for i, x := range f {
		for _, o := range []string{"--require", "-r", "--import", "--loader", "--experimental-loader"} {
			if x == o && i+1 < len(f) {
				load(f[i+1])
			} else if v, ok := strings.CutPrefix(x, o+"="); ok && strings.HasPrefix(o, "--") {
				load(v)
			}
		}
		if strings.HasPrefix(x, "--inspect") {
			out = append(out, "node "+shellQuote(x))
		}
	}
	return strings.Join(out, "\n")
}

// nodeFields splits node options as node does: at blanks outside double
// quotes (the quotes are kept here: they are the code's own in a data:
// URL).
func nodeFields(v string) []string {
	var out []string
	var b strings.Builder
	q := false
	for _, r := range v {
		switch {
		case r == '"':
			q = !q
			b.WriteRune(r)
		case !q && (r == ' ' || r == '\t' || r == '\n'):
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// EnvCodeDynamic reports a variable whose value, only known at run time,
// is code that cannot be read (PAGER="$X", PROMPT_COMMAND="$(...)"); a
// compiler or wrapper named by a variable (CC="$CC") is everyday.
func EnvCodeDynamic(name string) bool {
	switch EnvCode(name) {
	case "shell":
		return EnvCodeText(name, "$(x)") != ""
	case "source", "command", "node":
		return true
	}
	return false
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ReadsCommands reports that the program, run with args (after its name)
// and with nothing given on its stdin, reads the commands it runs from its
// stdin: a shell with no -c code and no script operand (or with -s, or -i
// and no script), an interpreter with no inline code, no module and no
// script (or the script "-", or -i), ssh with a host and no remote command
// (and no -N). Where the harness can type into a running command later
// (Codex's write_stdin, never hooked), that hands the session a shell.
func ReadsCommands(name string, args []string) bool {
	p := Lookup(name)
	if p == nil {
		return false
	}
	if p.HostFirst && p.Is(Runner) && p.Is(NetSender) { // ssh
		o := p.Parse(args)
		return len(o.Pos) == 1 && !o.Short['N'] && o.Values["W"] == ""
	}
	if !p.Kind.Any(Shell|Interpreter) || p.ChecksOnly(args) {
		return false
	}
	interactive, stdinScript := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--help" || a == "--version" || a == "-h" || a == "-V" || (a == "-v" && p.Is(Interpreter)):
			return false
		case a == "-":
			return true
		case a == "--":
			return i+1 >= len(args) || args[i+1] == "-" || stdinScript
		case strings.HasPrefix(a, "--"):
			n, _, hasVal := strings.Cut(a[2:], "=")
			if slices.Contains(p.InlineLong, n) {
				return false
			}
			if !hasVal && p.Opts.longTakes(n) {
				i++
			}
		case len(a) > 1 && a[0] == '-' || len(a) > 1 && a[0] == '+' && p.Is(Shell):
			for k := 1; k < len(a); k++ {
				c := a[k]
				switch {
				case strings.IndexByte(p.Inline, c) >= 0, p.Module != "" && c == p.Module[0]:
					return false
				case strings.IndexByte(p.Attached, c) >= 0:
					k = len(a) // its value is the rest of the word (perl -i.bak)
				case c == 'i':
					interactive = true
				case c == 's' && p.Is(Shell):
					stdinScript = true
				case strings.IndexByte(p.Opts.Short, c) >= 0:
					if k == len(a)-1 {
						i++
					}
					k = len(a)
				}
			}
		default:
			return stdinScript || interactive && p.Is(Interpreter) // a script operand
		}
	}
	return true
}
