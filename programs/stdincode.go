package programs

import "strings"

// Readers of code on stdin that are no shell or interpreter of the model:
// a build tool, debugger, editor or database client told to take its
// script from stdin (make -f -, cmake -P /dev/stdin, gdb -x /dev/stdin,
// vim -es, sqlite3 with no SQL operand). Fed by a download, they run
// fetched code as curl | sh does (judge: REMOTE-CODE-EXEC).

// StdinPath reports a path that names the standard input: "-" (for the
// programs that take it so), /dev/stdin, /dev/fd/0, /proc/self/fd/0.
func StdinPath(p string) bool {
	return p == "-" || p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0"
}

// CodeOnStdin reports that name run with args reads the code it runs from
// stdin although the model knows it as no shell or interpreter (those are
// read by their own grammar, Inline and Module): its StdinCode says so, or
// the model does not know it, its name reads like an interpreter's
// (InterpreterName) and it is given no script (no operand, or "-").
func CodeOnStdin(name string, args []string) bool {
	p := Lookup(name)
	switch {
	case p != nil && p.StdinCode != nil:
		return p.StdinCode(args)
	case p != nil:
		return false
	case !InterpreterName(name):
		return false
	}
	ops := Operands(args)
	return len(ops) == 0 || StdinPath(ops[0]) || has(args, "-", "--stdin")
}

// InterpreterName reports a command name the model does not know that
// reads like a shell's or an interpreter's: ...sh (xonsh, elvish, yash,
// mksh), ...script (wolframscript, escript, cscript), run... (runghc,
// runhaskell), ...repl.
func InterpreterName(name string) bool {
	n := strings.ToLower(strings.TrimSuffix(name, ".exe"))
	n = strings.TrimRight(n, "0123456789.-_")
	switch {
	case len(n) < 3 || strings.ContainsAny(n, "./"): // ./wipe.sh is a script
		return false
	case strings.HasSuffix(n, "sh") && !strings.HasSuffix(n, "ssh") && !strings.HasSuffix(n, "mosh"):
		return true
	case strings.HasSuffix(n, "script"), strings.HasSuffix(n, "repl"):
		return true
	case strings.HasPrefix(n, "run") && len(n) > 5:
		return true
	}
	return false
}

// optIsStdin reports an option among opts whose value names stdin (make
// -f -, gdb -x /dev/stdin, emacs --script=/dev/stdin).
func optIsStdin(args []string, opts ...string) bool {
	for _, o := range opts {
		vals, _ := optValues(args, o)
		for _, v := range vals {
			if StdinPath(v) {
				return true
			}
		}
	}
	return false
}

func makeStdinCode(args []string) bool {
	return optIsStdin(args, "-f", "--file", "--makefile")
}

func cmakeStdinCode(args []string) bool { return optIsStdin(args, "-P") }

func gdbStdinCode(args []string) bool {
	return optIsStdin(args, "-x", "--x", "-command", "--command")
}

// editorStdinCode: vim -s/-S FILE, emacs -l/--load/--script FILE of stdin,
// and vim or ex in Ex mode (-e, -es, -Es) reading its commands on stdin
// when no script is given.
func editorStdinCode(args []string) bool {
	if optIsStdin(args, "-s", "-S", "-l", "--load", "--script", "-scriptload") {
		return true
	}
	for _, a := range args {
		if a == "-e" || a == "-es" || a == "-Es" || a == "-E" {
			return true
		}
	}
	return false
}

// sqliteStdinCode: sqlite3 [OPTIONS] [DB [SQL]] reads SQL and dot-commands
// (.shell, .system) on stdin when no SQL operand is given.
func sqliteStdinCode(args []string) bool {
	return len(Parse(args, S("", "cmd", "init", "separator", "newline", "nullvalue")).Pos) < 2
}

var _ = register(
	&Program{Name: "cmake", Kind: NonReader, StdinCode: cmakeStdinCode},
)

func init() {
	Lookup("make").StdinCode = makeStdinCode
	Lookup("gdb").StdinCode = gdbStdinCode
	Lookup("vim").StdinCode = editorStdinCode
	Lookup("sqlite3").StdinCode = sqliteStdinCode
	Lookup("ed").StdinCode = func([]string) bool { return true } // ed's commands (!CMD among them) come on stdin
}
