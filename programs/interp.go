package programs

import (
	"slices"
	"strings"
)

// Interpreters. Lang names the language package parse scans for shell-outs
// and deletions; Inline are the options whose value is code; Opts.Short the
// options that take a value; Attached the options whose value is written
// onto them (perl -i.bak, -Mmod); Module the option that runs a module
// (python -m) instead of a script.
//
// Versioned names resolve through Lookup: python3.12, pypy3.10, php8.2,
// perl5.36, ruby3.3, lua5.4, node18 are the programs below.
var _ = register(
	&Program{Name: "python", Names: []string{"python2", "python3", "pypy", "pypy3", "ipython", "ipython3"}, Kind: Interpreter | TaskRunner, Lang: "python",
		Opts: S("WXQ"), Inline: "c", Module: "m", CheckModules: []string{"py_compile", "compileall"}, CodeIn: pyModuleCode},
	&Program{Name: "node", Names: []string{"nodejs"}, Kind: Interpreter, Lang: "js",
		Opts: S("r", "require", "import", "loader"), Inline: "ep", InlineLong: jsInlineLong, Check: "c", CheckLong: []string{"check"}},
	&Program{Name: "deno", Kind: Interpreter, Lang: "js", Opts: S("r", "ext", "config", "import-map", "location", "seed", "cert", "lock"), Inline: "ep", InlineLong: jsInlineLong, RunVerb: "run"},
	&Program{Name: "bun", Kind: Interpreter | PkgManager | TaskRunner, Lang: "js", Opts: S("r"), Inline: "ep", InlineLong: jsInlineLong, RunVerb: "run",
		Installs: []string{"install", "add"}, InstallRunsCode: true, Manifest: "package.json"},
	&Program{Name: "perl", Kind: Interpreter, Lang: "perl", Opts: S("I"), Inline: "eE", Attached: "iIMmxdDC", AttachedDigits: "l0", Check: "c", CheckRuns: true},
	&Program{Name: "ruby", Names: []string{"jruby", "truffleruby", "irb"}, Kind: Interpreter, Lang: "ruby", Opts: S("IrC"), Inline: "e", Attached: "iIxKEF", AttachedDigits: "0TW", Check: "c"},
	&Program{Name: "php", Kind: Interpreter | TaskRunner, Lang: "php", Opts: S("cdfz"), Inline: "rBRE", Check: "l", ScriptOpt: 'f'},
	&Program{Name: "lua", Names: []string{"luajit"}, Kind: Interpreter, Lang: "lua", Opts: S("l"), Inline: "e"},
	&Program{Name: "Rscript", Kind: Interpreter, Lang: "r", Inline: "e"},
	&Program{Name: "tclsh", Names: []string{"wish"}, Kind: Interpreter, Lang: "tcl"},
	&Program{Name: "osascript", Kind: Interpreter, Lang: "applescript", Inline: "e"},
	// Languages whose code is not read (Scanned): what they run from stdin
	// or a script file still counts (curl | julia, curl -o x.jl && julia
	// x.jl), and so does inline code known only at run time.
	&Program{Name: "julia", Kind: Interpreter, Lang: "julia", Opts: S("JLpt", "project", "sysimage", "load", "threads", "procs"), Inline: "eE",
		InlineLong: []string{"eval", "print"}},
	&Program{Name: "elixir", Names: []string{"iex"}, Kind: Interpreter, Lang: "elixir", Opts: S("r", "require", "pa", "pz"), Inline: "e",
		InlineLong: []string{"eval"}},
	&Program{Name: "xonsh", Kind: Interpreter, Lang: "xonsh", Inline: "c"},
	&Program{Name: "nu", Names: []string{"nushell"}, Kind: Interpreter, Lang: "nu", Opts: S("", "config", "env-config"), Inline: "c",
		InlineLong: []string{"commands"}},
	&Program{Name: "elvish", Kind: Interpreter, Lang: "elvish", Inline: "c"},
	// ysh (Oils): its commands are a shell's, its expressions its own
	&Program{Name: "ysh", Kind: Interpreter, Lang: "ysh", Inline: "c"},
	&Program{Name: "racket", Kind: Interpreter, Lang: "racket", Inline: "e", InlineLong: []string{"eval"}},
	&Program{Name: "guile", Kind: Interpreter, Lang: "scheme", Inline: "c"},
	&Program{Name: "sbcl", Kind: Interpreter, Lang: "lisp", InlineLong: []string{"eval"}},
	&Program{Name: "clisp", Kind: Interpreter, Lang: "lisp", Inline: "x"},
	&Program{Name: "ecl", Kind: Interpreter, Lang: "lisp", CodeIn: langCode("ecl -eval", "lisp", "-eval")},
	// crystal eval CODE; ghc -e EXPR evaluates without compiling (ghc
	// x.hs compiles, so ghc is no interpreter of its operands).
	&Program{Name: "crystal", Kind: Interpreter, Lang: "crystal", RunVerb: "run", EvalVerb: "eval"},
	&Program{Name: "ghc", CodeIn: langCode("ghc -e", "haskell", "-e")},
	// the REPLs read their code on stdin, or -e
	&Program{Name: "ghci", Kind: Interpreter, Lang: "haskell", Inline: "e"},
	&Program{Name: "ocaml", Names: []string{"runghc", "runhaskell", "escript", "jshell"}, Kind: Interpreter, Lang: "other"},
	// kotlin -e EXPR, sage -c (python with Sage's library), nim e F
	// (NimScript), MATLAB's -batch/-r statements
	&Program{Name: "kotlin", Names: []string{"kotlinc", "kotlinc-jvm"}, Kind: Interpreter, Lang: "kotlin", Inline: "e"},
	&Program{Name: "sage", Kind: Interpreter, Lang: "python", Inline: "c"},
	&Program{Name: "nim", Kind: Interpreter, Lang: "nim", RunVerb: "e"},
	&Program{Name: "matlab", Kind: Interpreter, Lang: "matlab", CodeIn: langCode("matlab -batch", "matlab", "-batch", "-r")},
	&Program{Name: "scala", Names: []string{"groovy", "clojure", "clj", "bb", "janet", "qjs", "raku", "rakudo", "perl6"}, Kind: Interpreter,
		Lang: "other", Inline: "e"},
	&Program{Name: "octave", Kind: Interpreter, Lang: "octave", InlineLong: []string{"eval"}},
	// rc (Plan 9's shell) is a shell whose syntax is close to POSIX (ShellLike)
	&Program{Name: "rc", Kind: Interpreter, Lang: "rc", Inline: "c"},
	// erl -eval EXPR (one dash, a whole word); dc -e and gnuplot -e take
	// their programs; dc and gnuplot read one on stdin too.
	&Program{Name: "erl", Kind: Interpreter, Lang: "erlang", CodeIn: langCode("erl -eval", "erlang", "-eval")},
	&Program{Name: "dc", Kind: Interpreter, Lang: "dc", Inline: "e", InlineLong: []string{"expression"}},
	&Program{Name: "gnuplot", Kind: Interpreter, Lang: "gnuplot", Inline: "e"},
	&Program{Name: "swift", Kind: Interpreter, Lang: "swift", Inline: "e"},
	&Program{Name: "dart", Kind: Interpreter, Lang: "dart", RunVerb: "run"},
	// java Main.java runs the source file, java -jar app.jar the jar.
	&Program{Name: "java", Kind: Interpreter, Lang: "java"},
	&Program{Name: "bats", Kind: Interpreter, Lang: "bats"},
	// m4's syscmd and esyscmd run shell commands.
	&Program{Name: "m4", Kind: Interpreter, Lang: "m4", Opts: S("DUIdlo")},
	&Program{Name: "awk", Names: []string{"gawk", "mawk", "nawk"}, Kind: Reader, Lang: "awk", Opts: S("fvF"),
		CodeIn: awkCode, Outputs: awkOutputs, Inputs: awkInputs, Zeroes: awkZeroes,
		StdinCode: func(a []string) bool { return optIsStdin(a, "-f", "--file") }}, // awk -f /dev/stdin
)

var jsInlineLong = []string{"eval", "print"}

// TeX engines run the code of an operand that starts with a backslash
// (pdflatex '\input x'); with shell escape on, its \write18{CMD} runs CMD
// (without it only a short list of tools may run, rm not among them).
var _ = register(
	&Program{Name: "pdflatex", Names: []string{"latex", "xelatex", "lualatex", "tex", "pdftex", "xetex", "luatex", "etex", "lualatex-dev", "pdflatex-dev"},
		Opts: S("", "output-directory", "jobname", "interaction", "output-format", "aux-directory", "fmt", "progname"), CodeIn: texCode},
)

func texCode(a []string) []Code {
	if !has(a, "-shell-escape", "--shell-escape", "-enable-write18", "--enable-write18") {
		return nil
	}
	var out []Code
	for i, x := range a {
		if strings.HasPrefix(x, "\\") || strings.HasPrefix(x, "&") {
			out = append(out, Code{Arg: i, Text: x, Via: "tex -shell-escape", Lang: "tex"})
		}
	}
	return out
}

// ShellLike reports the languages of shells that are not POSIX shells but
// whose commands mostly read as one (nu, xonsh, elvish, rc): parse reads
// their code as shell where it parses as shell, and by the commands it
// embeds where it does not.
func ShellLike(lang string) bool {
	switch lang {
	case "nu", "xonsh", "elvish", "rc", "ysh":
		return true
	}
	return false
}

// langCode is a CodeIn for options whose value is code of lang (gdb -ex,
// lldb -o, erl -eval): whole words, or --opt=VALUE.
func langCode(via, lang string, opts ...string) func([]string) []Code {
	return func(args []string) []Code {
		var out []Code
		for _, o := range opts {
			vals, at := optValues(args, o)
			for k, v := range vals {
				out = append(out, Code{Arg: at[k], Text: v, Via: via, Lang: lang})
			}
		}
		return out
	}
}

// Scanned reports the languages whose code package parse reads.
func Scanned(lang string) bool {
	switch lang {
	case "python", "js", "perl", "ruby", "php":
		return true
	}
	return false
}

// Python modules that run code given as their arguments: python -m timeit
// [-s SETUP] STMT..., python -m pdb -c CMD (a statement pdb runs),
// python -m IPython -c CODE. code are the options whose value is code;
// operands: the operands are statements too.
type moduleCode struct {
	opts     Spec
	code     []string
	operands bool
}

var pyCodeModules = map[string]moduleCode{
	"timeit":  {S("nrsu", "number", "repeat", "setup", "unit"), []string{"s", "setup"}, true},
	"pdb":     {S("cm", "command"), []string{"c", "command"}, false},
	"IPython": {S("cm"), []string{"c"}, false},
}

// pySpec: python's own options that take a value.
var pySpec = S("WXQ")

// pyModuleCode is the code python -m MOD hands a module of pyCodeModules,
// as one python text (the setup imports what the statements call).
func pyModuleCode(a []string) []Code {
	i, mod := 0, ""
	for i < len(a) && mod == "" {
		x := a[i]
		switch {
		case x == "-m" && i+1 < len(a):
			mod, i = a[i+1], i+2
		case strings.HasPrefix(x, "-m") && len(x) > 2:
			mod, i = x[2:], i+1
		case len(x) < 2 || x[0] != '-' || x == "--" || strings.ContainsRune(x[1:], 'c') && !strings.HasPrefix(x, "--"):
			return nil // a script, or -c CODE: read as python's own
		default:
			i = pySpec.next(a, i)
		}
	}
	g, ok := pyCodeModules[mod]
	if !ok {
		return nil
	}
	var parts []string
	at := -1
	add := func(k int, v string) {
		if at < 0 {
			at = k
		}
		parts = append(parts, v)
	}
	for j := i; j < len(a); j++ {
		x := a[j]
		switch {
		case x == "--":
			for k := j + 1; g.operands && k < len(a); k++ {
				add(k, a[k])
			}
			j = len(a)
		case strings.HasPrefix(x, "--"):
			name, val, hasVal := strings.Cut(x[2:], "=")
			switch {
			case slices.Contains(g.code, name) && hasVal:
				add(j, val)
			case slices.Contains(g.code, name) && j+1 < len(a):
				add(j+1, a[j+1])
				j++
			case !hasVal && g.opts.longTakes(name):
				j++
			}
		case len(x) > 1 && x[0] == '-':
			for k := 1; k < len(x); k++ {
				if !g.opts.shortTakes(x[k]) {
					continue
				}
				v, vat := x[k+1:], j
				if v == "" && j+1 < len(a) {
					j++
					v, vat = a[j], j
				}
				if slices.Contains(g.code, x[k:k+1]) {
					add(vat, v)
				}
				break
			}
		case g.operands:
			add(j, x)
		}
	}
	if at < 0 {
		return nil
	}
	return []Code{{Arg: at, Text: strings.Join(parts, "\n"), Via: "python -m " + mod, Lang: "python"}}
}
