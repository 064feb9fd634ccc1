package parse

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sentinel-guard/sentinel/programs"
	"mvdan.cc/sh/v3/syntax"
)

// cmd is a simple command being unwrapped.
type cmd struct {
	argv      []arg
	assigns   []Assign
	redirs    []Redirect
	wrappers  []string
	dir       string
	origin    Origin
	stdin     *input
	stdinOK   bool // stdin given by the command (Exec.Stdin); never cleared when stdin is consumed
	pipeline  int
	stage     int
	extra     bool             // runs with further unknown arguments (xargs, find -exec +)
	extraSrcs []string         // where those arguments come from
	feed      *programs.Listed // what those arguments stand for, when known (fanout.go)
	feedOne   bool             // find -exec ... ; (fd -x): one name a run, in place of {}
	runs      *DynamicCode
	synthetic bool
	help      bool
	remote    bool   // runs on another machine or in a container
	params    *[]arg // positional parameters in effect ($0 first), nil if unknown
	shParams  *[]arg // those of a new shell it starts (bash -c STR $0 $1...)
	// inherited is how many of wrappers came with the code around it
	// (sudo bash -c '...', time): only wrappers of its own stop a function
	// or alias from being expanded, or a cd from applying.
	inherited int
	locals    map[string]bool // the calling function's locals (eval 'local x')
}

// unwrapped reports that no wrapper of the command itself was removed.
func (c *cmd) unwrapped() bool { return len(c.wrappers) == c.inherited }

// inShell reports a command that runs in the shell itself (no wrapper of
// its own but command or builtin, not remote, not a pipeline stage): what
// it does to variables lasts.
func (c *cmd) inShell() bool {
	for _, wr := range c.wrappers[c.inherited:] {
		if wr != "command" && wr != "builtin" {
			return false
		}
	}
	return !c.remote && c.pipeline == 0
}

func (c *cmd) setAssign(a Assign) { c.assigns = setAssign(c.assigns, a) }

// wrap removes the first n words (a wrapper and its options) and records
// the wrapper.
func (c *cmd) wrap(name string, rest []arg) {
	c.wrappers = append(slices.Clip(c.wrappers), name)
	c.argv = rest
}

// run unwraps a command until it reaches the one that runs, emitting it
// and whatever it runs in turn. It returns what the command writes on
// stdout, for a following pipeline stage.
func (w *walker) run(sc *scope, c *cmd) output {
	for {
		if len(c.argv) == 0 {
			return output{data: -1}
		}
		a0 := c.argv[0]
		if !a0.Static {
			w.emit(c)
			return output{srcs: a0.srcs, data: -1}
		}
		name := baseName(a0.Value)
		if c.unwrapped() && !c.remote && !strings.Contains(a0.Value, "/") && w.callDefined(sc, c, name) {
			return output{data: -1}
		}
		if c.unwrapped() && !c.remote && !strings.Contains(a0.Value, "/") && programs.Lookup(name) == nil {
			w.notFound(sc, c) // bash runs command_not_found_handle for a command it cannot find
		}
		if c.inShell() {
			w.builtinVars(sc, c, name)
		}
		if p := programs.Lookup(name); p.HasCode() && !c.help {
			w.codeIn(c, name, p) // ssh -o ProxyCommand=CMD, tar --checkpoint-action=exec=CMD (launch.go)
		}
		w.tclStdin(c, name) // tclsh <<< 'exec rm -rf /x' (launch.go)
		if fs := programs.ToolFiles(name, words(c.argv[1:])); len(fs) > 0 && !c.help && allStatic(c.argv[1:]) {
			w.toolFiles(c, fs) // pytest's conftest.py, python -m MOD (files.go)
		}
		w.compiled(c, name) // cc -o t x.c: t runs what x.c spawns (files.go)
		var next bool
		// One case per program of the model (Canon: its aliases and
		// versioned names are the model's).
		switch programs.Canon(name) {
		case "sudo", "doas":
			next = w.sudo(c, name)
		case "env":
			next = w.env(c)
		case "command":
			next = w.commandBuiltin(c)
		case "builtin": // nohup, busybox
			next = w.simpleWrapper(c, name)
		case "ionice":
			next = w.ionice(c)
		case "flock":
			next = w.flock(sc, c)
		case "watch":
			next = w.watch(sc, c)
		case "xargs":
			next = w.xargs(c)
		case "find":
			w.find(sc, c)
			return output{srcs: []string{name}, data: -1, list: listingOf(c, name)}
		case "fd": // fdfind
			return w.fd(sc, c, name)
		case "parallel": // sem
			w.parallel(sc, c)
			return output{srcs: []string{name}, data: -1}
		case "eval":
			w.lastCode = nil
			w.eval(sc, c)
			w.sameShell(sc, c)
			return output{data: -1}
		case "source", ".":
			w.lastCode = nil
			w.source_(c, name)
			w.sameShell(sc, c)
			return output{data: -1}
		case "alias":
			w.defineAlias(c)
			return output{data: -1}
		case "hash":
			w.hashPath(c)
			return output{data: -1}
		case "cd": // pushd, popd
			w.emit(c)
			if c.unwrapped() && !c.remote { // a remote Dir stays unknown
				old := sc.dir
				if len(c.argv) == 2 && c.argv[1].Static && c.argv[1].Value == "-" && name == "cd" {
					sc.dir = sc.oldDir // cd -: back to $OLDPWD
				} else {
					sc.dir = w.chdir(sc.dir, name, c.argv[1:])
				}
				sc.oldDir = old
			}
			return output{data: -1}
		case "su": // runuser
			next = w.su(c, name)
		case "sg":
			next = w.sg(c)
		case "trap":
			w.trap(c)
			return output{data: -1}
		case "script":
			w.script(c)
			return output{data: -1}
		case "ssh":
			w.ssh(sc, c)
			return output{srcs: []string{name}, data: -1}
		case "docker": // podman, nerdctl
			w.container(sc, c, name)
			return output{srcs: []string{name}, data: -1}
		case "kubectl": // oc, kubecolor
			w.kubectl(sc, c, name)
			return output{srcs: []string{name}, data: -1}
		default:
			// the program model says what the rest are
			p := programs.Lookup(name)
			if p != nil && p.Launch != nil {
				var handled bool
				if next, handled = w.launch(c, name, p); handled {
					break
				}
			}
			switch {
			case p != nil && p.Run == programs.RunAfterOptions:
				next = w.optsWrapper(c, name, p.Opts)
			case p != nil && p.Run == programs.RunAfterOperand:
				i, _ := scanOpts(c.argv[1:], p.Opts)
				next = w.unwrapAt(c, name, 1+i+1) // the duration, root or mask
			case p.Is(programs.Scheduler):
				w.schedule(c, name)
				return output{srcs: []string{name}, data: -1}
			case p.Is(programs.Shell) && p.Lang != "":
				w.winShell(c, programs.WinName(name), p.Lang) // cmd, powershell: winshell.go
				return output{srcs: []string{name}, data: -1}
			case programs.ShellSyntax(name):
				w.shell(sc, c, name)
				return output{srcs: []string{name}, data: -1}
			case p.Is(programs.Interpreter):
				// python, node: their code is read; julia, lua, Rscript:
				// not, but what they run it from still counts
				w.interpreter(sc, c, name, p.Lang)
				return output{srcs: []string{name}, data: -1}
			case !c.help && programs.CodeOnStdin(name, staticPrefix(c.argv[1:])):
				return w.stdinReader(c, name) // make -f -, gdb -x /dev/stdin, sqlite3
			default:
				return w.plain(c, name)
			}
		}
		if !next {
			return output{data: -1}
		}
	}
}

// plain emits a command that runs no further code, noting data positions.
func (w *walker) plain(c *cmd, name string) output {
	out := output{srcs: []string{name}, data: -1}
	if strings.Contains(c.argv[0].Value, "/") && w.runWritten(c, c.argv[:1], "") {
		return out // ./x.sh written earlier in the same source
	}
	if name == "npm" || name == "yarn" || name == "pnpm" || name == "bun" {
		defer w.npmScripts(c, name)
	}
	// --help: GNU-style tools print help and do nothing else. A program
	// named by a path (./deploy.sh) may not honour it, so it is not marked.
	for _, a := range c.argv[1:] {
		if a.Static && a.Value == "--" || strings.Contains(c.argv[0].Value, "/") {
			break
		}
		if a.Static && a.Value == "--help" {
			c.help = true
			w.addData(joinArgs(c.argv), "lookup")
			break
		}
	}
	w.emit(c)
	out.list = listingOf(c, name)
	switch name {
	case "echo", "printf":
		if text, ok := echoText(name, c.argv[1:]); ok {
			out = output{text: text, static: true, srcs: []string{name}, shellEcho: name == "echo" && echoAmbiguous(c.argv[1:])}
		} else if srcs := argSrcs(c.argv[1:]); len(srcs) > 0 {
			out.srcs = srcs // echo "$(curl ...)" | sh: the code is curl's output
		}
		if len(c.argv) > 1 {
			out.data = w.addData(joinArgs(c.argv[1:]), "argument of "+name)
		} else {
			out.data = -1
		}
	case "cat", "tee":
		if (name == "tee" || len(c.argv) == 1) && c.stdin != nil && c.stdin.static && !c.stdin.file {
			// cat <<EOF ... | sh: the heredoc is what the shell reads.
			out = output{text: c.stdin.text, static: true, srcs: []string{name}, decoded: c.stdin.decoded}
			out.data = w.addData(c.stdin.text, "heredoc")
		} else if name == "cat" && len(c.argv) == 2 && c.argv[1].Static && c.argv[1].Value != "" &&
			c.argv[1].Value[0] != '-' && !isStdinPath(c.argv[1].Value) {
			out.file = &c.argv[1] // cat x.py | python3: the file is the script
		}
	default:
		w.noteData(c, name)
		w.dbScripts(c, name) // psql -f x.sql written earlier (dbscripts.go)
		if o, ok := w.pure(c, name); ok {
			out = o // rev, tr, base64 -d, ... of known text (pure.go)
		}
	}
	return out
}

// notFound expands command_not_found_handle, when the source defined it,
// for a command the model does not know (it may not be installed): bash
// calls the handler with the command and its arguments.
func (w *walker) notFound(sc *scope, c *cmd) {
	const handler = "command_not_found_handle"
	if _, ok := w.funcs[handler]; !ok || w.active["function "+handler] {
		return
	}
	h := *c
	h.argv = append([]arg{{Word: Word{Value: handler, Static: true}}}, c.argv...)
	w.callDefined(sc, &h, handler)
}

// callDefined expands a function or alias defined in the same source.
func (w *walker) callDefined(sc *scope, c *cmd, name string) bool {
	if body, ok := w.funcs[name]; ok {
		key := "function " + name
		if w.active[key] {
			if !slices.Contains(w.recurse, name) {
				w.recurse = append(w.recurse, name) // :(){ :|:& };:
			}
			return true // recursion: its body is judged already
		}
		w.tick()
		w.active[key] = true
		defer delete(w.active, key)
		inner := w.nest(sc)
		inner.origin = Origin{Kind: OriginFunction, Depth: sc.origin.Depth, Via: key}
		inner.stdin = c.stdin
		inner.wrap = c.wrappers // time f, or f inside sudo bash -c '...'
		args := c.argv          // $0 is the function name, then its arguments
		inner.params = &args
		inner.locals = map[string]bool{}
		w.stmt(inner, body, pipePos{n: c.pipeline, stage: c.stage, stdin: c.stdin})
		if c.pipeline == 0 {
			// A function runs in the calling shell: its cd and assignments
			// last, except those of its local variables.
			sc.dir, sc.assigns = inner.dir, restoreLocals(sc.assigns, inner.assigns, inner.locals)
		}
		return true
	}
	if text, ok := w.aliases[name]; ok {
		key := "alias " + name
		if w.active[key] {
			return false // alias x='x -i': the inner x is the command
		}
		w.tick()
		w.active[key] = true
		defer delete(w.active, key)
		src := text
		for _, a := range c.argv[1:] {
			src += " " + quoteArg(a)
		}
		w.lastCode = nil
		w.reparse(c, src, Origin{Kind: OriginAlias, Depth: c.origin.Depth + 1, Via: key}, c.stdin, true)
		w.sameShell(sc, c)
		return true
	}
	return false
}

func quoteArg(a arg) string {
	if !a.Static {
		return a.Value
	}
	q, err := syntax.Quote(a.Value, syntax.LangBash)
	if err != nil {
		return a.Value
	}
	return q
}

func (w *walker) defineAlias(c *cmd) {
	w.emit(c)
	for _, a := range c.argv[1:] {
		name, val, ok := strings.Cut(a.Value, "=")
		if ok && a.Static && name != "" {
			w.aliases[name] = val
		}
	}
}

// hashPath: hash -p PATH NAME makes NAME run PATH from then on, as an
// alias would (hash -p /bin/rm ls; ls -rf ~ is rm -rf ~).
func (w *walker) hashPath(c *cmd) {
	w.emit(c)
	args := c.argv[1:]
	for i := 0; i+1 < len(args); i++ {
		if args[i].Static && args[i].Value == "-p" {
			prog := args[i+1]
			for _, n := range args[i+2:] {
				if n.Static && !strings.HasPrefix(n.Value, "-") {
					if prog.Static {
						w.aliases[n.Value] = quoteArg(prog)
					} else {
						w.aliases[n.Value] = prog.Value // run-time: the name is dynamic
					}
				}
			}
			return
		}
	}
}

// reparse parses code carried in a string (bash -c, eval, ssh, ...) and
// walks it in the context of c. strict: a syntax error fails Parse (the
// code is fully known and would run); otherwise it is ignored, because the
// caller already reported the code as dynamic.
func (w *walker) reparse(c *cmd, src string, o Origin, stdin *input, strict bool) {
	if o.Depth > w.opt.MaxDepth {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
	}
	var f *syntax.File
	if strict {
		f = w.parseSource(src, o.Depth)
	} else {
		func() {
			defer func() {
				if r := recover(); r != nil {
					if a, ok := r.(abort); ok {
						if _, syn := a.err.(*SyntaxError); syn {
							return
						}
					}
					panic(r)
				}
			}()
			f = w.parseSource(src, o.Depth)
		}()
		if f == nil {
			return
		}
	}
	sc := &scope{
		w:       w,
		dir:     c.dir,
		assigns: c.assigns,
		origin:  o,
		wrap:    c.wrappers,
		stdin:   stdin,
		stdinOK: c.stdinOK || stdin != nil,
		remote:  c.remote || o.Kind == OriginRemote,
	}
	switch o.Kind {
	case OriginEval, OriginAlias: // the same shell
		sc.params, sc.locals = c.params, c.locals
	case OriginSource:
		sc.locals = c.locals
	case OriginShellString:
		sc.params = c.shParams
	}
	if o.Kind == OriginRemote {
		sc.dir, sc.assigns, sc.wrap = "", nil, nil // another machine or container
	}
	w.stmts(sc, f.Stmts, pipePos{})
	w.lastCode = sc
}

// sameShell applies to the caller's scope what code run in the same shell
// (eval, source) did to variables. Code that was read: its assignments
// last; code that could not be read, or a script file: any variable may
// have changed. (Prefix assignments, eval x=1 ..., do not last.)
func (w *walker) sameShell(sc *scope, c *cmd) {
	code := w.lastCode
	w.lastCode = nil
	if !c.inShell() {
		return
	}
	if code == nil || c.runs != nil {
		sc.allDynamic()
		sc.params = nil
		return
	}
	before := sc.assigns
	sc.assigns, sc.dir, sc.params = code.assigns, code.dir, code.params
	for _, a := range c.assigns {
		if v, ok := findAssign(before, a.Name); !ok || v != a.Value {
			sc.setDynamic(a.Name) // a prefix assignment, or changed by one
		}
	}
}

// reparseArgs re-parses words joined by spaces (eval, ssh, watch). When
// some are dynamic, their source form is re-parsed leniently and the
// command is marked as running code it cannot read. wrapper, if set, is
// recorded on the inner executions.
func (w *walker) reparseArgs(c *cmd, words []arg, o Origin, how, wrapper string, stdin *input) {
	src := joinArgs(words)
	switch {
	case len(words) == 1 && words[0].code != nil:
		// eval "$(echo 'rm x')": the code is a known text after all.
		src = words[0].code.text
		w.dropOutputData(words[0].code)
	case !allStatic(words):
		c.runs = &DynamicCode{How: how, Sources: argSrcs(words)}
	}
	markDecoded(c, how, argsDecoded(words)) // eval "$(echo ... | base64 -d)"
	w.emit(c)
	inner := *c
	if wrapper != "" {
		inner.wrappers = append(slices.Clip(c.wrappers), wrapper)
	}
	w.reparse(&inner, src, o, stdin, c.runs == nil)
}

func (w *walker) eval(sc *scope, c *cmd) {
	args := c.argv[1:]
	if len(args) > 0 && args[0].Static && args[0].Value == "--" {
		args = args[1:]
	}
	w.reparseArgs(c, args, Origin{Kind: OriginEval, Depth: c.origin.Depth + 1, Via: "eval"}, "eval", "", nil)
}

// source_ handles source/. : a process substitution or a dynamic path runs
// code that cannot be read; a static path is an ordinary execution.
func (w *walker) source_(c *cmd, name string) {
	if len(c.argv) > 1 {
		if f := c.argv[1]; f.code != nil {
			w.sourceCode(c, f.code, name)
			return
		} else if !f.Static {
			c.runs = &DynamicCode{How: "source", Sources: f.srcs}
		} else if isStdinPath(f.Value) && c.stdin != nil {
			w.stdinCode(c, name, "") // . /dev/stdin <<< "$code"
			return
		} else if w.runWritten(c, c.argv[1:2], "") {
			return
		}
	}
	w.emit(c)
}

// sourceCode runs code known statically from a process substitution:
// source <(echo 'rm x'), bash <(printf 'rm x').
func (w *walker) sourceCode(c *cmd, code *output, via string) {
	markDecoded(c, "source", code.decoded)
	w.emit(c)
	w.dropOutputData(code)
	inner := *c
	inner.stdin, inner.runs = nil, nil
	w.reparse(&inner, code.text, Origin{Kind: OriginSource, Depth: c.origin.Depth + 1, Via: via}, nil, code.decoded == "")
}

func (w *walker) dropOutputData(o *output) {
	if o.data >= 0 {
		w.dropData[o.data] = true
	}
}

// chdir returns the directory after cd/pushd/popd.
func (w *walker) chdir(dir, name string, args []arg) string {
	if name == "popd" {
		return ""
	}
	for len(args) > 0 && args[0].Static && strings.HasPrefix(args[0].Value, "-") && args[0].Value != "-" {
		if args[0].Value == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return w.opt.Home
	}
	a := args[0]
	if !a.Static || a.Value == "-" || strings.HasPrefix(a.Value, "~") || strings.HasPrefix(a.Value, "+") {
		return ""
	}
	if strings.HasPrefix(a.Value, "/") {
		return resolve("/", a.Value)
	}
	if dir == "" {
		return ""
	}
	return resolve(dir, a.Value)
}

// optSpec is an option grammar from the program model.
type optSpec = programs.Spec

// scanOpts skips leading options of args (programs.Skip): it returns the
// index of the first operand and the options seen ("x" or "long" ->
// argument). A dynamic word ends the options: it may be the command itself.
func scanOpts(args []arg, sp optSpec) (int, map[string]string) {
	return programs.Skip(len(args), func(i int) (string, bool) { return args[i].Value, args[i].Static }, sp)
}

// spec is the option grammar the program model gives name.
func spec(name string) optSpec {
	if p := programs.Lookup(name); p != nil {
		return p.Opts
	}
	return optSpec{}
}

// optsWrapper unwraps WRAPPER [options] CMD ...
func (w *walker) optsWrapper(c *cmd, name string, sp optSpec) bool {
	i, _ := scanOpts(c.argv[1:], sp)
	return w.unwrapAt(c, name, 1+i)
}

// unwrapAt unwraps at argv index i, or emits the wrapper itself when no
// command follows.
func (w *walker) unwrapAt(c *cmd, name string, i int) bool {
	if i >= len(c.argv) {
		w.emit(c)
		return false
	}
	c.wrap(name, c.argv[i:])
	return true
}

func (w *walker) simpleWrapper(c *cmd, name string) bool {
	i := 1
	if len(c.argv) > 1 && c.argv[1].Static && strings.HasPrefix(c.argv[1].Value, "-") {
		if c.argv[1].Value != "--" {
			w.emit(c) // busybox --list, nohup --help
			return false
		}
		i = 2
	}
	return w.unwrapAt(c, name, i)
}

func (w *walker) sudo(c *cmd, name string) bool {
	i, flags := scanOpts(c.argv[1:], spec("sudo"))
	i++
	if i >= len(c.argv) {
		if _, s := flags["s"]; s {
			c.wrap(name, []arg{{Word: Word{Value: "sh", Static: true}}})
			return true
		}
		if _, l := flags["i"]; l {
			c.wrap(name, []arg{{Word: Word{Value: "sh", Static: true}}})
			return true
		}
	}
	if _, e := flags["e"]; e { // sudo -e FILE: sudoedit, not a command
		w.emit(c)
		return false
	}
	if d, ok := flags["D"]; ok {
		c.dir = resolve(c.dir, d)
	}
	// sudo VAR=value CMD sets the variable for the command.
	for i < len(c.argv)-1 && name == "sudo" && envName().MatchString(c.argv[i].Value) {
		n, v, _ := strings.Cut(c.argv[i].Value, "=")
		c.setAssign(Assign{Name: n, Value: Word{Value: v, Static: c.argv[i].Static}})
		i++
	}
	return w.unwrapAt(c, name, i)
}

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

func (w *walker) env(c *cmd) bool {
	i, flags := scanOpts(c.argv[1:], spec("env"))
	rest := slices.Clone(c.argv[1+i:])
	if s, ok := flags["S"]; ok {
		rest = append(splitWords(s), rest...)
	} else if s, ok := flags["split-string"]; ok {
		rest = append(splitWords(s), rest...)
	}
	if _, ok := flags["i"]; ok {
		c.assigns = nil
	}
	if _, ok := flags["ignore-environment"]; ok {
		c.assigns = nil
	}
	for _, k := range []string{"u", "unset"} {
		if n, ok := flags[k]; ok {
			c.assigns = slices.DeleteFunc(slices.Clone(c.assigns), func(a Assign) bool { return a.Name == n })
		}
	}
	for _, k := range []string{"C", "chdir"} {
		if d, ok := flags[k]; ok {
			c.dir = resolve(c.dir, d)
		}
	}
	for len(rest) > 0 && envName().MatchString(rest[0].Value) {
		n, v, _ := strings.Cut(rest[0].Value, "=")
		c.setAssign(Assign{Name: n, Value: Word{Value: v, Static: rest[0].Static}})
		rest = rest[1:]
	}
	if len(rest) == 0 {
		w.emit(c) // env alone prints the environment
		return false
	}
	c.wrap("env", rest)
	return true
}

// splitWords splits an env -S string into words with shell quoting rules.
func splitWords(s string) []arg {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	var out []arg
	var err error
	for wd, werr := range p.WordsSeq(strings.NewReader(s)) {
		if werr != nil {
			err = werr
			break
		}
		a := arg{Word: Word{Value: wd.Lit(), Static: true}}
		if a.Value == "" && len(wd.Parts) > 0 {
			// Quoted or expanded: fall back to the text of the word.
			a.Value = strings.Trim(wordText(wd), `'"`)
			a.Static = !strings.ContainsAny(a.Value, "$`")
		}
		out = append(out, a)
		if len(out) >= 10000 {
			break
		}
	}
	if err != nil {
		out = nil
		for _, f := range strings.Fields(s) {
			out = append(out, arg{Word: Word{Value: f, Static: true}})
		}
	}
	return out
}

func wordText(wd *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, wd)
	return b.String()
}

func (w *walker) commandBuiltin(c *cmd) bool {
	i, flags := scanOpts(c.argv[1:], optSpec{})
	_, v := flags["v"]
	_, V := flags["V"]
	if v || V {
		w.addData(joinArgs(c.argv[1+i:]), "lookup")
		w.emit(c)
		return false
	}
	return w.unwrapAt(c, "command", 1+i)
}

func (w *walker) ionice(c *cmd) bool {
	i, flags := scanOpts(c.argv[1:], spec("ionice"))
	for _, k := range []string{"p", "P", "u", "pid", "pgid", "uid"} {
		if _, ok := flags[k]; ok { // changes other processes
			w.emit(c)
			return false
		}
	}
	return w.unwrapAt(c, "ionice", 1+i)
}

func (w *walker) flock(sc *scope, c *cmd) bool {
	i, flags := scanOpts(c.argv[1:], spec("flock"))
	i++ // the lock file or fd
	rest := c.argv[min(i+1, len(c.argv)):]
	str, hasC := flags["c"]
	if s, ok := flags["command"]; ok {
		str, hasC = s, true
	}
	var strArg *arg
	if !hasC && len(rest) >= 2 && rest[0].Static && (rest[0].Value == "-c" || rest[0].Value == "--command") {
		strArg, hasC = &rest[1], true
	} else if hasC {
		a := findArg(c.argv, str) // taken by scanOpts; keep its static-ness
		strArg = &a
	}
	if hasC && strArg != nil {
		o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: "flock -c"}
		w.reparseArgs(c, []arg{*strArg}, o, "shell-c", "flock", c.stdin)
		return false
	}
	return w.unwrapAt(c, "flock", i+1)
}

func (w *walker) watch(sc *scope, c *cmd) bool {
	i, flags := scanOpts(c.argv[1:], spec("watch"))
	_, x := flags["x"]
	_, exec := flags["exec"]
	if x || exec {
		return w.unwrapAt(c, "watch", 1+i)
	}
	words := c.argv[1+i:]
	if len(words) == 0 {
		w.emit(c)
		return false
	}
	// watch runs its arguments, joined by spaces, with sh -c.
	o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: "watch"}
	w.reparseArgs(c, words, o, "shell-c", "watch", nil)
	return false
}

func (w *walker) xargs(c *cmd) bool {
	i, _ := scanOpts(c.argv[1:], spec("xargs"))
	// -i and -I give a replacement string; words containing it get input.
	repl := ""
	for _, a := range c.argv[1 : 1+i] {
		switch {
		case strings.HasPrefix(a.Value, "-I") && len(a.Value) > 2:
			repl = a.Value[2:]
		case a.Value == "-i" || a.Value == "--replace":
			repl = "{}"
		case strings.HasPrefix(a.Value, "-i"):
			repl = a.Value[2:]
		case strings.HasPrefix(a.Value, "--replace="):
			repl = strings.TrimPrefix(a.Value, "--replace=")
		}
	}
	for j := 1; j < 1+i && j < len(c.argv); j++ {
		if c.argv[j].Value == "-I" && j+1 < len(c.argv) {
			repl = c.argv[j+1].Value
		}
	}
	for _, f := range xargsArgFiles(c.argv[1 : 1+i]) {
		// xargs -a FILE: xargs reads FILE and hands its words to the
		// command (echo by default prints them): a read of FILE
		w.fileEffect(c, "<", istr(f), c.origin)
	}
	rest := c.argv[1+i:]
	if len(rest) == 0 {
		rest = []arg{{Word: Word{Value: "echo", Static: true}}}
	}
	if line, ok := xargsLine(c.argv[1:1+i], c.stdin, repl); ok {
		// echo rm | xargs -I{} {} -rf x: one known line replaces {} (static.go)
		c.wrap("xargs", replaceLine(rest, repl, line))
		c.stdin = nil
		c.origin = Origin{Kind: OriginWrapper, Depth: c.origin.Depth, Via: "xargs"}
		return true
	}
	rest = replaceArgs(rest, repl)
	var srcs []string
	if c.stdin != nil {
		srcs = c.stdin.srcs
	}
	if in := xargsInput(c.argv[1:1+i], c.stdin); in != nil && repl == "" {
		// xargs rm -rf <<< /x, echo /x | xargs rm: the arguments are known.
		c.wrap("xargs", append(slices.Clip(rest), in...))
		c.stdin = nil
		c.origin = Origin{Kind: OriginWrapper, Depth: c.origin.Depth, Via: "xargs"}
		return true
	}
	c.wrap("xargs", rest)
	c.extra, c.extraSrcs = true, srcs
	if c.stdin != nil {
		c.feed = c.stdin.list // ls | xargs rm: the entries ls lists
	}
	c.stdin = nil
	c.origin = Origin{Kind: OriginWrapper, Depth: c.origin.Depth, Via: "xargs"}
	return true
}

// xargsArgFiles are the files xargs reads its arguments from (-a FILE,
// -aFILE, --arg-file FILE, --arg-file=FILE).
func xargsArgFiles(opts []arg) []Word {
	var out []Word
	for k, a := range opts {
		v := a.Value
		switch {
		case (v == "-a" || v == "--arg-file") && k+1 < len(opts):
			out = append(out, opts[k+1].Word)
		case strings.HasPrefix(v, "--arg-file="):
			out = append(out, Word{Value: v[len("--arg-file="):], Static: a.Static})
		case len(v) > 2 && v[0] == '-' && v[1] != '-' && a.Static:
			if k := strings.IndexByte(v, 'a'); k > 0 && strings.Trim(v[1:k], "0rtpx") == "" && k+1 < len(v) {
				out = append(out, Word{Value: v[k+1:], Static: true}) // -0aFILE
			}
		}
	}
	return out
}

// replaceArgs marks words containing the replacement string as dynamic.
func replaceArgs(args []arg, repl string) []arg {
	if repl == "" {
		return args
	}
	out := slices.Clone(args)
	for i := range out {
		if out[i].Static && strings.Contains(out[i].Value, repl) { // the command word too: xargs -I{} {} x
			out[i].Static = false
		}
	}
	return out
}

func (w *walker) find(sc *scope, c *cmd) {
	w.emit(c) // find itself: rules see -delete
	args := c.argv
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Static || !programs.FindRuns(v) {
			continue
		}
		j := i + 1
		for j < len(args) && !(args[j].Static && (args[j].Value == ";" || args[j].Value == "+")) {
			j++
		}
		inner := *c
		inner.argv = replaceArgs(args[i+1:j], "{}")
		inner.wrappers = append(slices.Clip(c.wrappers), "find -exec")
		inner.extra = true
		inner.extraSrcs = []string{"find"}
		inner.stdin = nil
		inner.redirs = nil
		inner.origin = Origin{Kind: OriginWrapper, Depth: c.origin.Depth, Via: "find " + v}
		inner.feed = listingOf(c, "find") // {} stands for what find finds
		inner.feedOne = j < len(args) && args[j].Value == ";"
		if len(inner.argv) > 0 {
			w.run(sc, &inner)
		}
		i = j
	}
}

func (w *walker) parallel(sc *scope, c *cmd) {
	i, _ := scanOpts(c.argv[1:], spec("parallel"))
	rest := c.argv[1+i:]
	end := slices.IndexFunc(rest, func(a arg) bool {
		return a.Static && strings.HasPrefix(a.Value, ":::")
	})
	template := rest
	var sources []arg
	if end >= 0 {
		template, sources = rest[:end], rest[end:]
	}
	if len(rest) == 0 {
		w.stdinCode(c, "parallel", "") // curl ... | parallel: each line read is a command
		return
	}
	w.emit(c)
	o := Origin{Kind: OriginWrapper, Depth: c.origin.Depth, Via: "parallel"}
	if len(template) == 0 {
		// No template: every argument is itself a command line.
		for _, a := range sources {
			if a.Static && strings.HasPrefix(a.Value, ":::") {
				continue
			}
			inner := *c
			inner.wrappers = append(slices.Clip(c.wrappers), "parallel")
			o.Depth = c.origin.Depth + 1
			if a.Static {
				w.reparse(&inner, a.Value, o, nil, true)
			} else {
				inner.argv = []arg{a}
				inner.origin = o
				inner.runs = &DynamicCode{How: "shell-c", Sources: a.srcs}
				w.emit(&inner)
			}
		}
		return
	}
	if lines, ok := parallelLines(template, sources); ok {
		// parallel rm -rf ::: ~/a ~/b: the lines it runs, in a shell
		for _, line := range lines {
			inner := *c
			inner.wrappers = append(slices.Clip(c.wrappers), "parallel")
			inner.stdin = nil
			w.reparse(&inner, line, Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: "parallel"}, nil, true)
		}
		return
	}
	inner := *c
	inner.argv = replaceArgs(template, "{")
	inner.wrappers = append(slices.Clip(c.wrappers), "parallel")
	inner.extra = true
	inner.stdin = nil
	inner.origin = o
	w.run(sc, &inner)
}

// su [options] [-] [USER [ARGS]]: -c STRING runs a shell command as USER;
// without it su starts USER's shell, which reads stdin.
func (w *walker) su(c *cmd, name string) bool {
	sp := spec("su")
	i, flags := scanOpts(c.argv[1:], sp)
	rest := c.argv[1+i:]
	_, u := flags["u"]
	_, user := flags["user"]
	if name == "runuser" && (u || user) {
		return w.unwrapAt(c, name, 1+i) // runuser -u USER CMD: no shell
	}
	if len(rest) > 0 && rest[0].Static && rest[0].Value == "-" {
		rest = rest[1:]
	}
	if len(rest) > 0 { // the user, then su options may follow it
		j, more := scanOpts(rest[1:], sp)
		for k, v := range more {
			flags[k] = v
		}
		rest = rest[1+j:]
	}
	for _, k := range []string{"c", "C", "command", "session-command"} {
		if str, ok := flags[k]; ok {
			o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: name + " -c"}
			w.reparseArgs(c, []arg{findArg(c.argv, str)}, o, "shell-c", name, nil)
			return false
		}
	}
	c.wrap(name, append([]arg{{Word: Word{Value: "sh", Static: true}}}, rest...))
	return true
}

// sg GROUP [-c] COMMAND: the command is a shell string.
func (w *walker) sg(c *cmd) bool {
	rest := c.argv[1:]
	if len(rest) < 2 {
		w.emit(c)
		return false
	}
	words := rest[1:]
	if words[0].Static && words[0].Value == "-c" {
		words = words[1:]
	}
	o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: "sg"}
	w.reparseArgs(c, words, o, "shell-c", "sg", nil)
	return false
}

// trap ACTION SIGNAL...: the action is shell code run later.
func (w *walker) trap(c *cmd) {
	args := c.argv[1:]
	if len(args) > 0 && args[0].Static && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) < 2 || (args[0].Static && strings.HasPrefix(args[0].Value, "-")) {
		w.emit(c) // trap -l, trap -p, trap - SIG: no code
		return
	}
	o := Origin{Kind: OriginEval, Depth: c.origin.Depth + 1, Via: "trap"}
	w.reparseArgs(c, args[:1], o, "eval", "", nil)
}

// script -c COMMAND: runs the command with sh -c inside a typescript.
func (w *walker) script(c *cmd) {
	_, flags := scanOpts(c.argv[1:], spec("script"))
	str, ok := flags["c"]
	if s, has := flags["command"]; has {
		str, ok = s, true
	}
	if !ok {
		w.emit(c)
		return
	}
	o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: "script -c"}
	w.reparseArgs(c, []arg{findArg(c.argv, str)}, o, "shell-c", "script", nil)
}

// findArg returns the word of argv whose value is v (an option's value
// taken by scanOpts), to keep whether it is static.
func findArg(argv []arg, v string) arg {
	for i := len(argv) - 1; i > 0; i-- {
		if argv[i].Value == v {
			return argv[i]
		}
	}
	return arg{Word: Word{Value: v}}
}

// xargsInput returns the words xargs reads from stdin when they are known:
// static text without quotes or backslashes (xargs' own quoting), read
// with the default blank separation (no -0, -d, -a, -E, -e, -I, -i), at
// most 256 words; else nil.
func xargsInput(opts []arg, in *input) []arg {
	if in == nil || !in.static || in.file || strings.ContainsAny(in.text, `"'\\`) {
		return nil
	}
	for _, o := range opts {
		v := o.Value
		if !o.Static || strings.HasPrefix(v, "--") && v != "--" && !strings.HasPrefix(v, "--max-") && !strings.HasPrefix(v, "--no-run-if-empty") && !strings.HasPrefix(v, "--verbose") {
			return nil
		}
		if !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "0daEeIi") {
			return nil
		}
	}
	words := strings.Fields(in.text)
	if len(words) == 0 || len(words) > 256 {
		return nil
	}
	out := make([]arg, len(words))
	for k, wd := range words {
		out[k] = arg{Word: Word{Value: wd, Static: true}} // xargs does not glob
	}
	return out
}
