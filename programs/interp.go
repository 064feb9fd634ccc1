package programs

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
		Opts: S("WXQ"), Inline: "c", Module: "m", CheckModules: []string{"py_compile", "compileall"}},
	&Program{Name: "node", Names: []string{"nodejs"}, Kind: Interpreter, Lang: "js",
		Opts: S("r", "require", "import", "loader"), Inline: "ep", InlineLong: jsInlineLong, Check: "c", CheckLong: []string{"check"}},
	&Program{Name: "deno", Kind: Interpreter, Lang: "js", Opts: S("r"), Inline: "ep", InlineLong: jsInlineLong, RunVerb: "run"},
	&Program{Name: "bun", Kind: Interpreter | PkgManager | TaskRunner, Lang: "js", Opts: S("r"), Inline: "ep", InlineLong: jsInlineLong, RunVerb: "run",
		Installs: []string{"install", "add"}, InstallRunsCode: true, Manifest: "package.json"},
	&Program{Name: "perl", Kind: Interpreter, Lang: "perl", Opts: S("I"), Inline: "eE", Attached: "iIMmlx0dDC", Check: "c", CheckRuns: true},
	&Program{Name: "ruby", Names: []string{"jruby"}, Kind: Interpreter, Lang: "ruby", Opts: S("IrC"), Inline: "e", Attached: "iIx0lKTWEF", Check: "c"},
	&Program{Name: "php", Kind: Interpreter | TaskRunner, Lang: "php", Opts: S("cdfz"), Inline: "rBRE", Check: "l", ScriptOpt: 'f'},
	&Program{Name: "lua", Names: []string{"luajit"}, Kind: Interpreter, Lang: "lua", Opts: S("l"), Inline: "e"},
	&Program{Name: "Rscript", Kind: Interpreter, Lang: "r", Inline: "e"},
	&Program{Name: "tclsh", Names: []string{"wish"}, Kind: Interpreter, Lang: "tcl"},
	&Program{Name: "osascript", Kind: Interpreter, Lang: "applescript", Inline: "e"},
	&Program{Name: "awk", Names: []string{"gawk", "mawk", "nawk"}, Kind: Reader, Lang: "awk", Opts: S("fvF"),
		CodeIn: awkCode, Outputs: awkOutputs, Inputs: awkInputs},
)

var jsInlineLong = []string{"eval", "print"}

// Scanned reports the languages whose code package parse reads.
func Scanned(lang string) bool {
	switch lang {
	case "python", "js", "perl", "ruby", "php":
		return true
	}
	return false
}
