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
	&Program{Name: "bash", Names: []string{"rbash"}, Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "sh", Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "zsh", Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "dash", Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "ksh", Names: []string{"mksh", "pdksh", "oksh"}, Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "ash", Names: []string{"yash", "posh"}, Kind: Shell, Opts: shellSpec, Inline: "c", Check: "n"},
	&Program{Name: "fish", Kind: Shell, Opts: S("C", "init-command", "command"), Inline: "c", Check: "n", CheckLong: []string{"no-execute"}},
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
	&Program{Name: "direnv", Kind: EnvSetup | Runner, Launch: launchAfterSub("exec", 1, S(""))},
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
	&Program{Name: "mise", Names: []string{"rtx"}, Kind: EnvSetup | Runner, Launch: launchAfterSub("exec", 0, S("", "env", "cd"))},
	&Program{Name: "asdf", Kind: EnvSetup | Runner, Launch: launchAfterSub("exec", 0, S(""))},
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
// 4): "shell", shell code a shell runs (PROMPT_COMMAND before every
// prompt; PS0, PS1, PS2, PS4 expand $(...) when shown); "source", a file
// bash or sh sources when it starts (BASH_ENV, ENV); "command", a command
// line programs start (PAGER, MANPAGER, EDITOR, VISUAL, BROWSER, the
// askpass helpers, LESSOPEN's |CMD %s); "node", NODE_OPTIONS whose
// --require/-r/--import FILE node loads first; "" for the rest. Git's own
// variables are GitCodeEnv's.
func EnvCode(name string) string {
	switch name {
	case "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS4":
		return "shell"
	case "BASH_ENV", "ENV":
		return "source"
	case "PAGER", "MANPAGER", "SYSTEMD_PAGER", "EDITOR", "VISUAL", "BROWSER", "SUDO_ASKPASS", "SSH_ASKPASS",
		"LESSOPEN", "LESSCLOSE", "DIFFPROG", "TERMINAL":
		return "command"
	case "NODE_OPTIONS":
		return "node"
	}
	return ""
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
	case "command":
		v := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(value), "|"))
		v = strings.ReplaceAll(v, "%s", "FILE")
		return v
	case "node":
		f := strings.Fields(value)
		var out []string
		for i, x := range f {
			for _, o := range []string{"--require", "-r", "--import", "--loader", "--experimental-loader"} {
				if x == o && i+1 < len(f) {
					out = append(out, "node "+shellQuote(f[i+1]))
				} else if v, ok := strings.CutPrefix(x, o+"="); ok && strings.HasPrefix(o, "--") {
					out = append(out, "node "+shellQuote(v))
				}
			}
		}
		return strings.Join(out, "\n")
	}
	return ""
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
