package parse

import (
	"slices"

	"github.com/sentinel-guard/sentinel/programs"
)

// Launchers and code in arguments (programs/launch.go). A launcher's
// command (screen -dmS x CMD, systemd-run CMD, wsl -e CMD) is unwrapped
// like nice's; one given as shell text (tmux new-session 'CMD', wsl CMD) is
// re-parsed as bash -c's. Code an argument holds (ssh -o ProxyCommand=CMD,
// tar --checkpoint-action=exec=CMD, rg --pre CMD, sed 1e CMD) is re-parsed
// as the program's child, and the program itself is emitted as it is.

// launch handles a launcher: next reports that c now holds the command to
// run (unwrapped); handled that it was emitted here.
func (w *walker) launch(c *cmd, name string, p *programs.Program) (next, handled bool) {
	l, ok := p.Launch(words(c.argv[1:]))
	if !ok {
		return false, false
	}
	at := 1 + l.At
	if at >= len(c.argv) {
		return false, false
	}
	for _, a := range c.argv[1:at] {
		if !a.Static {
			return false, false // a dynamic option may be the command itself
		}
	}
	if l.Keep && !l.Shell {
		w.emit(c) // npx PKG: the runner's own rules read it too
	}
	if l.Shell {
		o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: name}
		w.reparseArgs(c, c.argv[at:], o, "shell-c", name, nil)
		return false, true
	}
	return w.unwrapAt(c, name, at), true
}

// codeIn re-parses the code c's arguments hold, as children of c.
func (w *walker) codeIn(c *cmd, name string, p *programs.Program) {
	args := words(c.argv[1:])
	if programs.StreamShell(name, args) && c.runs == nil {
		c.runs = &DynamicCode{How: "shell-stdin", Sources: []string{name}} // sed 's/x/y/e', awk print | "sh"
	}
	// options the environment stands for (GOFLAGS, TAR_OPTIONS, MAKEFLAGS)
	// come first: codes in them are at indexes below len(env)
	env := programs.EnvOptions(name, func(n string) (string, bool) {
		v, ok := findAssign(c.assigns, n)
		return v.Value, ok && v.Static
	})
	codes := p.Codes(append(env, args...))
	for _, k := range codes {
		if k.Arg < len(env) {
			if k.Arg >= 0 {
				w.handedCode(c, k) // static: only static values were given
			}
			continue
		}
		k.Arg -= len(env)
		if 1+k.Arg >= len(c.argv) {
			continue
		}
		a := c.argv[1+k.Arg]
		if !a.Static {
			if c.runs == nil {
				c.runs = &DynamicCode{How: "shell-c", Sources: a.srcs}
			}
			continue
		}
		w.handedCode(c, k)
	}
}

// handedCode re-parses code k an argument or variable of c holds, as c's
// child.
func (w *walker) handedCode(c *cmd, k programs.Code) {
	inner := *c
	inner.wrappers = append(slices.Clip(c.wrappers), c.argv[0].Value)
	inner.stdin, inner.runs = nil, nil
	if k.Lang != "" {
		// gdb -ex 'python os.system(...)', emacs --eval: code of its language
		w.scanCode(&inner, k.Text, k.Lang, Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: k.Via})
		return
	}
	o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: k.Via, Handed: true}
	if k.Remote {
		o.Kind = OriginRemote
	}
	w.reparse(&inner, k.Text, o, nil, false)
}

// tclStdin re-parses the spawn/exec/system commands of a Tcl script a
// Tcl interpreter with no script operand reads on stdin (a heredoc, a
// here-string), as children of c: Tcl's grammar is not read, its commands
// that start programs are (programs.TclCommands).
func (w *walker) tclStdin(c *cmd, name string) {
	p := programs.Lookup(name)
	if p == nil || p.Lang != "tcl" || c.help || len(c.argv) != 1 || c.stdin == nil || !c.stdin.static || c.stdin.file {
		return
	}
	src := programs.TclCommands(c.stdin.text)
	if src == "" {
		return
	}
	inner := *c
	inner.wrappers = append(slices.Clip(c.wrappers), c.argv[0].Value)
	inner.stdin, inner.runs = nil, nil
	w.reparse(&inner, src, Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: name + " stdin"}, nil, false)
}
