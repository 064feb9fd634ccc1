package programs

// Shells: they run -c STRING, a script operand, or what they read on stdin.
// -o/-O take a value (set -o pipefail); --rcfile/--init-file take a file.
var shellSpec = S("oO", "rcfile", "init-file")

var _ = register(
	&Program{Name: "bash", Names: []string{"rbash"}, Kind: Shell, Opts: shellSpec, Inline: "c"},
	&Program{Name: "sh", Kind: Shell, Opts: shellSpec, Inline: "c"},
	&Program{Name: "zsh", Kind: Shell, Opts: shellSpec, Inline: "c"},
	&Program{Name: "dash", Kind: Shell, Opts: shellSpec, Inline: "c"},
	&Program{Name: "ksh", Names: []string{"mksh", "pdksh", "oksh"}, Kind: Shell, Opts: shellSpec, Inline: "c"},
	&Program{Name: "ash", Names: []string{"yash", "posh"}, Kind: Shell, Opts: shellSpec, Inline: "c"},
	&Program{Name: "fish", Kind: Shell, Opts: S("C", "init-command", "command"), Inline: "c"},
	&Program{Name: "csh", Names: []string{"tcsh"}, Kind: Shell, Inline: "c"},
	// Windows shells (WSL, Git Bash, Cygwin, a Windows runner): cmd /c and
	// powershell -Command are their -c. Their verbs are judged in judge.
	&Program{Name: "cmd", Kind: Shell, Lang: "cmd"},
	&Program{Name: "powershell", Names: []string{"pwsh"}, Kind: Shell, Lang: "powershell"},
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
	&Program{Name: "direnv", Kind: EnvSetup},
	&Program{Name: "brew", Kind: EnvSetup | PkgManager, Installs: []string{"install"}, InstallRunsCode: true},
	&Program{Name: "conda", Kind: EnvSetup | PkgManager, Installs: []string{"install"}, InstallRunsCode: true},
	&Program{Name: "fnm", Kind: EnvSetup},
	&Program{Name: "zoxide", Kind: EnvSetup},
	&Program{Name: "starship", Kind: EnvSetup},
	&Program{Name: "opam", Kind: EnvSetup},
	&Program{Name: "dircolors", Kind: EnvSetup},
	&Program{Name: "keychain", Kind: EnvSetup},
	&Program{Name: "gpg-agent", Kind: EnvSetup},
	&Program{Name: "jenv", Kind: EnvSetup},
	&Program{Name: "goenv", Kind: EnvSetup},
	&Program{Name: "mise", Names: []string{"rtx"}, Kind: EnvSetup},
	&Program{Name: "asdf", Kind: EnvSetup},
	&Program{Name: "thefuck", Kind: EnvSetup},
	&Program{Name: "register-python-argcomplete", Kind: EnvSetup},
	&Program{Name: "luarocks", Kind: EnvSetup},
	&Program{Name: "rustup", Kind: EnvSetup},
	&Program{Name: "nvm", Kind: EnvSetup},
	&Program{Name: "volta", Kind: EnvSetup},
	&Program{Name: "pipenv", Kind: EnvSetup | TaskRunner},
	&Program{Name: "poetry", Kind: EnvSetup | PkgManager | TaskRunner, Installs: []string{"add", "install"}, InstallRunsCode: true},
	&Program{Name: "atuin", Kind: EnvSetup},
	&Program{Name: "mcfly", Kind: EnvSetup},
	&Program{Name: "oh-my-posh", Kind: EnvSetup},
)
