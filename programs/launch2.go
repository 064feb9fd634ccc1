package programs

import (
	"strings"
)

// Programs whose operand is code in another program's language (issue 19,
// launchers): a pager's start-up command (less +!CMD), man's pager
// (man -P CMD), expect's Tcl (spawn/exec), apt's hook options
// (-o APT::Update::Pre-Invoke::=CMD), entr -s, capsh -- ARGS (bash ARGS),
// and the shell-outs of the interpreters whose language package parse does
// not read (lua os.execute, R system). Each CodeIn returns the shell text
// the code amounts to; parse re-reads it as what runs.

// lessCode: +CMD runs a less command at start; !CMD of it is a shell
// escape (+!rm ..., ++!...). +G, +/pattern and +NUMBER run nothing.
func lessCode(a []string) []Code {
	var out []Code
	for i, x := range a {
		if x == "--" {
			break
		}
		c, ok := strings.CutPrefix(x, "+")
		if !ok {
			continue
		}
		c = strings.TrimPrefix(c, "+")
		if t, ok := strings.CutPrefix(c, "!"); ok && strings.TrimSpace(t) != "" {
			out = append(out, Code{Arg: i, Text: t, Via: "less +!"})
		}
	}
	return out
}

// manCode: -P/--pager PAGER and -H/--html BROWSER are command lines man
// runs through a shell.
func manCode(a []string) []Code {
	var out []Code
	for i, x := range a {
		switch {
		case (x == "-P" || x == "--pager" || x == "--html") && i+1 < len(a):
			out = append(out, Code{Arg: i + 1, Text: a[i+1], Via: "man " + x})
		case strings.HasPrefix(x, "--pager=") || strings.HasPrefix(x, "--html="):
			_, v, _ := strings.Cut(x, "=")
			out = append(out, Code{Arg: i, Text: v, Via: "man --pager"})
		case len(x) > 2 && (strings.HasPrefix(x, "-P") || strings.HasPrefix(x, "-H")) && x[1] != '-':
			out = append(out, Code{Arg: i, Text: x[2:], Via: "man " + x[:2]})
		}
	}
	return out
}

// expectCode: expect -c SCRIPT (and a here-string or file is not read);
// the script's spawn, exec and system commands start programs.
func expectCode(a []string) []Code {
	var out []Code
	for i, x := range a {
		if x == "-c" && i+1 < len(a) {
			if t := TclCommands(a[i+1]); t != "" {
				out = append(out, Code{Arg: i + 1, Text: t, Via: "expect -c"})
			}
		}
	}
	return out
}

// TclCommands is the shell text of a Tcl script's spawn/exec/system
// commands, one a line (Tcl's braces read as single quotes). Commands
// are split at ; and newlines, Tcl's own rule outside braces, and at the
// brackets of a command substitution.
func TclCommands(script string) string {
	var lines []string
	// expect's send after spawning a shell types a command line into it
	shellSpawned := false
	// [cmd] is a command of its own (puts [exec ls]): split there too
	for _, c := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' || r == '[' || r == ']' }) {
		f := strings.Fields(c)
		if len(f) < 2 {
			continue
		}
		switch strings.TrimLeft(f[0], "{") {
		case "file":
			// file delete ?-force? ?--? PATH...: rm, recursive with -force
			if f[1] != "delete" {
				continue
			}
			rest, rm := f[2:], "rm"
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				opt := rest[0]
				rest = rest[1:]
				if opt == "-force" {
					rm = "rm -rf" // directories too, and their contents
				}
				if opt == "--" {
					break
				}
			}
			if len(rest) > 0 {
				lines = append(lines, rm+" "+tclWords(rest))
			}
		case "send", "exp_send":
			rest := f[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
				rest = rest[1:] // send -- TEXT, send -i $id TEXT is rare
			}
			if shellSpawned && len(rest) > 0 {
				t := strings.Trim(strings.Join(rest, " "), "\"{}")
				lines = append(lines, strings.NewReplacer(`\r`, "\n", `\n`, "\n").Replace(t))
			}
		case "spawn", "exec", "system", "open":
			rest := f[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "-") && rest[0] != "--" {
				rest = rest[1:] // spawn -noecho, exec -ignorestderr
			}
			if len(rest) > 0 && rest[0] == "--" {
				rest = rest[1:]
			}
			if f[0] == "open" {
				if len(rest) == 0 || !strings.HasPrefix(strings.Trim(rest[0], "\"{"), "|") {
					continue // open FILE: no program
				}
			}
			if strings.TrimLeft(f[0], "{") == "spawn" && len(rest) > 0 {
				// a shell, here or elsewhere: bash, su, sudo -i, ssh HOST
				sp := Lookup(baseOf(strings.Trim(rest[0], "\"{}")))
				shellSpawned = sp.Is(Shell) || sp.Is(Privilege) || sp != nil && sp.Name == "ssh"
			}
			t := strings.Join(rest, " ")
			t = strings.NewReplacer("{", "'", "}", "'", "\"|", "\"", "|", "|").Replace(t)
			t = strings.TrimPrefix(strings.TrimPrefix(t, "\""), "|")
			lines = append(lines, strings.Trim(t, "\""))
		}
	}
	return strings.Join(lines, "\n")
}

// tclWords are Tcl words as shell words: braces quote like single quotes,
// and the home directory read from the environment ($env(HOME),
// $::env(HOME)) is ~.
func tclWords(ws []string) string {
	t := strings.Join(ws, " ")
	t = strings.NewReplacer("$::env(HOME)", "~", "$env(HOME)", "~", "{", "'", "}", "'").Replace(t)
	return t
}

// aptCode: apt/apt-get -o KEY=VALUE (and --option, -oKEY=VALUE) where KEY
// is one of the hook lists apt runs through sh -c: APT::Update::Pre-Invoke,
// DPkg::Pre-Invoke, DPkg::Post-Invoke, ...Post-Invoke-Success,
// DPkg::Pre-Install-Pkgs.
func aptCode(a []string) []Code {
	var out []Code
	for i, x := range a {
		kv, at := "", i
		switch {
		case (x == "-o" || x == "--option") && i+1 < len(a):
			kv, at = a[i+1], i+1
		case strings.HasPrefix(x, "-o") && len(x) > 2 && x[2] != '-':
			kv = x[2:]
		case strings.HasPrefix(x, "--option="):
			kv = x[len("--option="):]
		default:
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		lk := strings.ToLower(k)
		if strings.Contains(lk, "invoke") || strings.Contains(lk, "pre-install-pkgs") {
			out = append(out, Code{Arg: at, Text: v, Via: "apt -o " + k})
		}
	}
	return out
}

// entrLaunch: entr [-acdnprz] CMD ARGS (an argv); with -s, CMD is shell
// text run by $SHELL.
func entrLaunch(a []string) (Launched, bool) {
	shell := false
	i := 0
	for ; i < len(a) && strings.HasPrefix(a[i], "-") && a[i] != "-"; i++ {
		if a[i] == "--" {
			i++
			break
		}
		shell = shell || strings.Contains(a[i], "s")
	}
	return Launched{At: i, Shell: shell}, i < len(a)
}

// capshCode: capsh [options] -- ARGS runs /bin/bash ARGS (so -- -c TEXT is
// bash -c TEXT); --shell=PROG names another shell.
func capshCode(a []string) []Code {
	sh := "bash"
	for i, x := range a {
		if v, ok := strings.CutPrefix(x, "--shell="); ok {
			sh = v
		}
		if x != "--" || i+1 >= len(a) {
			continue
		}
		if a[i+1] == "-c" && i+2 < len(a) {
			return []Code{{Arg: i + 2, Text: a[i+2], Via: "capsh -- -c"}}
		}
		return []Code{{Arg: i + 1, Text: sh + " " + quoteArgv(a[i+1:]), Via: "capsh --"}}
	}
	return nil
}

// quoteArgv is the shell text that runs argv as it stands.
func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, w := range argv {
		q[i] = shellQuote(w)
	}
	return strings.Join(q, " ")
}

// callStrings returns the string literals that open each call of fn in
// code (os.execute("rm -rf ~"), system('ls')): the commands a language
// package parse does not read hands to a shell.
func callStrings(code string, fns ...string) []string {
	var out []string
	for _, fn := range fns {
		rest := code
		for {
			k := strings.Index(rest, fn)
			if k < 0 {
				break
			}
			rest = rest[k+len(fn):]
			s := strings.TrimLeft(rest, " \t")
			if strings.HasPrefix(s, "(") {
				s = strings.TrimLeft(s[1:], " \t")
			}
			if lit, ok := stringLiteral(s); ok {
				out = append(out, lit)
			}
		}
	}
	return out
}

// stringLiteral reads a quoted literal at the start of s ("..", '..',
// Lua's [[..]]), with backslash escapes of the quote.
func stringLiteral(s string) (string, bool) {
	if strings.HasPrefix(s, "[[") {
		if end := strings.Index(s, "]]"); end > 0 {
			return s[2:end], true
		}
		return "", false
	}
	if s == "" || s[0] != '"' && s[0] != '\'' {
		return "", false
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == q:
			return b.String(), true
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// inlineShellOuts is a CodeIn for an interpreter whose -e code parse does
// not read: the literal commands its shell-out calls run.
func inlineShellOuts(via string, fns ...string) func([]string) []Code {
	return func(a []string) []Code {
		var out []Code
		for i, x := range a {
			if x != "-e" || i+1 >= len(a) {
				continue
			}
			for _, c := range callStrings(a[i+1], fns...) {
				out = append(out, Code{Arg: i + 1, Text: c, Via: via})
			}
		}
		return out
	}
}

// afterDashes: a watcher's command follows its -- (watchexec -e go -- go
// test), run through a shell when it is one word.
func afterDashes(a []string) (Launched, bool) {
	for i, x := range a {
		if x == "--" && i+1 < len(a) {
			return Launched{At: i + 1, Shell: i+2 == len(a)}, true
		}
	}
	return Launched{}, false
}

// chainCode adds f to the code a program's arguments already hold.
func chainCode(name string, f func([]string) []Code) {
	p := Lookup(name)
	prev := p.CodeIn
	if prev == nil {
		p.CodeIn = f
		return
	}
	p.CodeIn = func(a []string) []Code { return append(prev(a), f(a)...) }
}

var _ = register(
	&Program{Name: "less", Names: []string{"more", "most"}, Kind: Reader, CodeIn: lessCode},
	&Program{Name: "man", Kind: NonReader | Manual, CodeIn: manCode},
	&Program{Name: "expect", Kind: Interpreter, Lang: "tcl", CodeIn: expectCode},
	&Program{Name: "entr", Kind: Runner, Launch: entrLaunch},
	&Program{Name: "watchexec", Kind: Runner, Launch: afterDashes},
	&Program{Name: "capsh", Kind: Runner, CodeIn: capshCode},
	&Program{Name: "R", Kind: Interpreter, Lang: "r", Inline: "e", CodeIn: inlineShellOuts("R system()", "system2", "system", "shell")},
)

func init() {
	chainCode("apt", aptCode)
	chainCode("lua", inlineShellOuts("lua os.execute()", "os.execute", "io.popen"))
	chainCode("Rscript", inlineShellOuts("R system()", "system2", "system", "shell"))
}
