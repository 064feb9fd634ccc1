package programs

import "strings"

// Launchers and programs whose arguments hold code (issue 19). A launcher
// starts a command in a session, a unit, a container of its own or through
// a subcommand (screen, tmux new-session, systemd-run, toybox, wsl,
// `op run --`, `uv run`, `nix-shell --run`); its Launch says where that
// command sits, as an argv or as shell text. Other programs take code in an
// option's value or in their script (ssh -o ProxyCommand=, tar
// --checkpoint-action=exec=, rg --pre, sed's e command, awk's system());
// their CodeIn returns it. Parse re-reads both as what runs, so every rule
// judges them as if typed at the prompt.

// Launched is where a launcher's command sits in its arguments.
type Launched struct {
	At    int  // index in args of the command's first word
	Shell bool // args[At:] joined by spaces is shell text, not an argv
	// Keep: the launcher is judged as a command too (npx fetches and
	// runs a package: its own rules read it).
	Keep bool
}

// Code is code one argument holds.
type Code struct {
	Arg  int    // index in args of the word holding it
	Text string // the code, as shell text
	Via  string // what hands it over, for explanations ("ssh -o ProxyCommand")
	// Remote: the other host runs it (rsync --rsync-path).
	Remote bool
	// Lang: the code is not shell text but code of this language (gdb's
	// commands, Emacs Lisp, vim's Ex commands), read by parse's reader of
	// it, or for a language none reads by the shell commands it embeds.
	Lang string
}

// skipOpts returns the index of the first operand of args under sp, and
// whether "--" ended the options.
func skipOpts(args []string, sp Spec) int {
	i, _ := Skip(len(args), func(i int) (string, bool) { return args[i], true }, sp)
	return i
}

// launchAt is a Launch for launchers that run their first operand after
// options of sp as an argv.
func launchAt(sp Spec) func([]string) (Launched, bool) { return Grammar{Opts: sp}.Launch }

// launchAfterSub is a Launch for SUBCOMMAND [options] [--] CMD...: op run,
// doppler run, uv run, poetry run, bundle exec, conda run; extra operands
// (aws-vault exec PROFILE) are skipped first.
func launchAfterSub(sub string, extra int, sp Spec) func([]string) (Launched, bool) {
	return Grammar{Sub: []string{sub}, Skip: extra, Opts: sp}.Launch
}

var screenSpec = S("ScehpTts", "Logfile")

func screenLaunch(a []string) (Launched, bool) {
	for _, x := range a {
		if x == "-X" || x == "-Q" || x == "-r" || x == "-R" || x == "-x" || x == "-ls" || x == "-list" || x == "-wipe" || x == "-D" {
			return Launched{}, false // a command to a running session, a reattach
		}
	}
	i := skipOpts(a, screenSpec)
	return Launched{At: i}, i < len(a)
}

// screenCode: screen -X stuff TEXT types TEXT into the session; -X exec
// CMD runs it; -s SHELL starts that shell.
func screenCode(a []string) []Code {
	for i, x := range a {
		if (x == "-X" || x == "-Q") && i+2 < len(a) {
			switch a[i+1] {
			case "stuff":
				return []Code{{Arg: i + 2, Text: keysText(a[i+2]), Via: "screen -X stuff"}}
			case "exec", "screen":
				return []Code{{Arg: i + 2, Text: strings.Join(a[i+2:], " "), Via: "screen -X " + a[i+1]}}
			}
		}
	}
	return nil
}

// keysText turns typed keys into the text a shell reads: ^M and \n are
// Enter (screen's stuff understands both).
func keysText(s string) string {
	s = strings.ReplaceAll(s, "^M", "\n")
	s = strings.ReplaceAll(s, "\\n", "\n")
	return strings.ReplaceAll(s, "\\r", "\n")
}

var tmuxGlobal = S("LSfcT")

// tmux's commands that start a shell command, with their valued options.
var tmuxRuns = map[string]Spec{
	"new-session": S("censtxyFf"), "new": S("censtxyFf"),
	"new-window": S("censtF"), "neww": S("censtF"),
	"split-window": S("celtpF"), "splitw": S("celtpF"),
	"respawn-pane": S("cet"), "respawnp": S("cet"),
	"respawn-window": S("cet"), "respawnw": S("cet"),
	"run-shell": S("dt"), "run": S("dt"),
	"display-popup": S("bcdehstwxyST"), "popup": S("bcdehstwxyST"),
	"pipe-pane": S("t"), "pipep": S("t"),
}

// tmuxCode: what a tmux command line runs: the shell command of
// new-session, new-window, split-window, run-shell, respawn-*,
// display-popup, pipe-pane, if-shell; the keys send-keys types, with
// Enter as a newline; the global -c shell-command.
func tmuxCode(a []string) []Code {
	var out []Code
	i := 0
	for i < len(a) && strings.HasPrefix(a[i], "-") {
		if a[i] == "-c" && i+1 < len(a) {
			out = append(out, Code{Arg: i + 1, Text: a[i+1], Via: "tmux -c"})
		}
		if len(a[i]) == 2 && strings.IndexByte("LSfcT", a[i][1]) >= 0 {
			i++
		}
		i++
	}
	// commands are separated by a ";" word
	for i < len(a) {
		end := i
		for end < len(a) && a[end] != ";" && a[end] != "\\;" {
			end++
		}
		out = append(out, tmuxOne(a[i:end], i)...)
		i = end + 1
	}
	return out
}

func tmuxOne(c []string, off int) []Code {
	if len(c) == 0 {
		return nil
	}
	name, args := c[0], c[1:]
	if sp, ok := tmuxRuns[name]; ok {
		k := skipOpts(args, sp)
		if k < len(args) {
			return []Code{{Arg: off + 1 + k, Text: strings.Join(args[k:], " "), Via: "tmux " + name}}
		}
		return nil
	}
	switch name {
	case "if-shell", "if":
		k := skipOpts(args, S("t"))
		if k < len(args) {
			return []Code{{Arg: off + 1 + k, Text: args[k], Via: "tmux if-shell"}}
		}
	case "send-keys", "send":
		k := skipOpts(args, S("NtcT"))
		var b strings.Builder
		first := -1
		for _, key := range args[k:] {
			switch key {
			case "Enter", "C-m", "C-j", "KPEnter", "^M":
				b.WriteByte('\n')
			case "Space":
				b.WriteByte(' ')
			case "Tab", "Escape", "BSpace", "C-c", "C-d", "C-u", "Up", "Down", "Left", "Right":
			default:
				if first < 0 {
					first = off + 1 + k
				}
				b.WriteString(key)
			}
		}
		if first >= 0 {
			return []Code{{Arg: first, Text: b.String(), Via: "tmux send-keys"}}
		}
	}
	return nil
}

// wslLaunch: wsl [-d DISTRO] [-u USER] [--cd DIR] -e|--exec CMD ARGS (an
// argv), or wsl [--] CMD... (the default shell runs the joined words).
func wslLaunch(a []string) (Launched, bool) {
	for i := 0; i < len(a); i++ {
		switch x := a[i]; {
		case x == "-e" || x == "--exec":
			return Launched{At: i + 1}, i+1 < len(a)
		case x == "--":
			return Launched{At: i + 1, Shell: true}, i+1 < len(a)
		case x == "-d" || x == "-u" || x == "--cd" || x == "--distribution" || x == "--user" || x == "--shell-type":
			i++
		case strings.HasPrefix(x, "-"):
			if x != "--system" {
				return Launched{}, false // --list, --install, --shutdown, ...
			}
		default:
			return Launched{At: i, Shell: true}, true
		}
	}
	return Launched{}, false
}

// nixShellCode: nix-shell --run/--command TEXT, nix develop -c/--command CMD.
func nixCode(a []string) []Code {
	for i, x := range a {
		if (x == "--run" || x == "--command") && i+1 < len(a) {
			return []Code{{Arg: i + 1, Text: a[i+1], Via: "nix-shell " + x}}
		}
	}
	return nil
}

func nixLaunch(a []string) (Launched, bool) {
	if len(a) == 0 || a[0] != "develop" && a[0] != "shell" {
		return Launched{}, false
	}
	for i, x := range a {
		if x == "-c" || x == "--command" {
			return Launched{At: i + 1}, i+1 < len(a)
		}
	}
	return Launched{}, false
}

// dtachLaunch: dtach -c|-A|-n|-N SOCKET [options] CMD; abduco -c|-n|-A NAME CMD.
func sessionLaunch(a []string) (Launched, bool) {
	if len(a) < 3 || len(a[0]) != 2 || a[0][0] != '-' || strings.IndexByte("cAnN", a[0][1]) < 0 {
		return Launched{}, false
	}
	i := 2 + skipOpts(a[2:], S("er"))
	return Launched{At: i}, i < len(a)
}

// npmExecCode: npm exec -c TEXT, npx -c TEXT (a shell line with the
// package's binaries on PATH).
func npmExecCode(a []string) []Code {
	for i, x := range a {
		if (x == "-c" || x == "--call") && i+1 < len(a) {
			return []Code{{Arg: i + 1, Text: a[i+1], Via: "npm exec -c"}}
		}
		if v, ok := strings.CutPrefix(x, "--call="); ok {
			return []Code{{Arg: i, Text: v, Via: "npm exec --call"}}
		}
	}
	return nil
}

var _ = register(
	&Program{Name: "screen", Kind: Runner, Launch: screenLaunch, CodeIn: screenCode},
	&Program{Name: "tmux", Kind: Runner, CodeIn: tmuxCode, Opts: tmuxGlobal},
	&Program{Name: "systemd-run", Kind: Runner | Scheduler, Launch: launchAt(S("upEMHdGtPqrS", "unit", "property",
		"description", "slice", "setenv", "working-directory", "host", "machine", "uid", "gid", "nice",
		"on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "on-calendar",
		"timer-property", "path-property", "socket-property", "service-type", "expand-environment"))},
	&Program{Name: "wsl", Kind: Runner, Launch: wslLaunch},
	&Program{Name: "dtach", Names: []string{"abduco"}, Kind: Runner, Launch: sessionLaunch},
	&Program{Name: "xvfb-run", Names: []string{"dbus-run-session", "flatpak-spawn", "daemonize", "chpst"},
		Kind: Runner, Launch: launchAt(S("nsfewpuU", "server-num", "server-args", "auth-file", "error-file", "wait",
			"xauth-protocol", "config-file", "dbus-daemon", "directory", "env"))},
	&Program{Name: "sshpass", Kind: Runner, Launch: launchAt(S("pfdP"))},
	&Program{Name: "doppler", Kind: Runner | CredPrinter, Launch: launchAfterSub("run", 0, S("pc", "project", "config", "command")), PrintsCredentials: secretsCLIPrints},
	&Program{Name: "aws-vault", Kind: Runner, Launch: launchAfterSub("exec", 1, S("d", "duration", "region"))},
	&Program{Name: "dotenv", Kind: Runner, Launch: launchAt(S("ecv"))},
	&Program{Name: "nix-shell", Kind: Runner, CodeIn: nixCode, Opts: S("pIA", "packages", "expr", "attr", "arg", "argstr")},
	&Program{Name: "nix", Kind: Runner, Launch: nixLaunch},
	&Program{Name: "pixi", Names: []string{"devbox", "pdm", "hatch", "rye"}, Kind: Runner,
		Launch: launchAfterSub("run", 0, S("e", "environment", "manifest-path"))},
	&Program{Name: "toolbox", Kind: Runner, Launch: launchAfterSub("run", 0, S("cdr", "container", "distro", "release"))},
	&Program{Name: "distrobox-enter", Kind: Runner, Launch: func(a []string) (Launched, bool) {
		for i, x := range a {
			if x == "--" || x == "-e" || x == "--exec" {
				return Launched{At: i + 1}, i+1 < len(a)
			}
		}
		return Launched{}, false
	}},
)

// Servers that hand a terminal to whoever connects (issue 19 class 8):
// gotty, ttyd and websocketd serve the command they are given over HTTP (websocketd
// wires its stdin/stdout to each WebSocket client), tmate and
// upterm share this terminal through a relay, jupyter with no token and a
// public address serves notebooks and terminals, code-server with
// --auth none likewise.
func termServerAttaches(a []string) bool {
	// the served command is the first word naming a program (the options'
	// grammars differ: gotty's -w is a flag, ttyd's takes a directory)
	for _, x := range a {
		if strings.HasPrefix(x, "-") {
			continue
		}
		if p := Lookup(baseOf(x)); p != nil {
			return p.Kind.Any(Shell|Interpreter|Privilege) || p.Name == "tmux" || p.Name == "screen"
		}
	}
	return false
}

func jupyterAttaches(a []string) bool {
	public, open := false, false
	for i, x := range a {
		v := x
		if i+1 < len(a) && !strings.Contains(x, "=") {
			v = x + "=" + a[i+1]
		}
		k, val, _ := strings.Cut(v, "=")
		val = strings.Trim(val, "'\"")
		switch {
		case k == "--ip" || strings.HasSuffix(k, "App.ip"):
			public = val == "0.0.0.0" || val == "*" || val == "::" || val == ""
		case strings.HasSuffix(k, ".token") || strings.HasSuffix(k, ".password"):
			open = open || val == ""
		}
	}
	return public && open
}

func codeServerAttaches(a []string) bool {
	auth, public := false, false
	for i, x := range a {
		switch {
		case x == "--auth" && i+1 < len(a):
			auth = a[i+1] == "none"
		case x == "--auth=none":
			auth = true
		case (x == "--bind-addr" || x == "--host") && i+1 < len(a):
			public = !strings.HasPrefix(a[i+1], "127.") && !strings.HasPrefix(a[i+1], "localhost")
		case strings.HasPrefix(x, "--bind-addr=") || strings.HasPrefix(x, "--host="):
			_, v, _ := strings.Cut(x, "=")
			public = !strings.HasPrefix(v, "127.") && !strings.HasPrefix(v, "localhost")
		}
	}
	return auth && public
}

var _ = register(
	&Program{Name: "gotty", Names: []string{"ttyd", "wetty", "shellinaboxd", "websocketd"}, Kind: NetSender, Attaches: termServerAttaches},
	&Program{Name: "tmate", Names: []string{"upterm", "sshx"}, Kind: NetSender, Attaches: func(a []string) bool {
		return !hasWord(a, "-V", "--version", "-h", "--help", "version")
	}},
	&Program{Name: "jupyter", Names: []string{"jupyter-notebook", "jupyter-lab"}, Kind: Runner, Attaches: jupyterAttaches},
	&Program{Name: "code-server", Kind: Runner, Attaches: codeServerAttaches},
	&Program{Name: "chisel", Kind: NetSender},
)

// c8 and nyc run the command they are given under coverage (c8 node x.js;
// the other launchers are programs/launchers.go's).
var _ = register(
	&Program{Name: "c8", Names: []string{"nyc"}, Kind: Runner, Launch: launchAt(S("rx", "reporter", "exclude", "include",
		"reports-dir", "temp-directory", "src", "extension"))},
)
