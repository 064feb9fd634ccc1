package parse

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
	"mvdan.cc/sh/v3/syntax"
)

// walker holds the state of one Parse call.
type walker struct {
	opt      Options
	execs    []Exec
	data     []Data
	dropData map[int]bool // Data entries later found to be code (echo ... | sh)
	work     int          // executions emitted plus function/alias expansions
	parsed   int          // bytes parsed, re-parsed strings included
	pipes    int          // pipelines numbered so far
	funcs    map[string]*syntax.Stmt
	aliases  map[string]string
	// fds are descriptors above 2 opened with known content (exec
	// 3<<<TEXT, 3<FILE): a later <&3 reads them (whole source, not scoped)
	fds      map[int]*input
	active   map[string]bool     // functions and aliases being expanded
	varSrcs  map[string][]string // variables assigned from command output, by name
	taint    bool                // scanning code built by shell expansion
	printer  *syntax.Printer     // made on first use
	parser   *syntax.Parser      // reused: a parse completes before its walk
	expBytes int                 // bytes of variable values substituted
	varWork  int                 // assignment entries copied (see varOps)
	unroll   int                 // product of the values of the for loops being unrolled
	patWork  int                 // pattern matching steps charged (expand.go)
	// takeDefaults: ${x:-d} of an unknown x is d (static.go, defaultAlt)
	takeDefaults bool
	lastCode     *scope // scope at the end of the last re-parsed code
	// written is the text earlier commands wrote to files (written.go).
	written      map[string]string
	writtenBytes int
	// inFile is the script on disk being walked (files.go), "" outside one.
	inFile  string
	recurse []string // functions that call themselves (Result.Recursive)
}

func newWalker(opt Options) *walker {
	return &walker{
		opt:      opt,
		dropData: map[int]bool{},
		funcs:    map[string]*syntax.Stmt{},
		aliases:  map[string]string{},
		active:   map[string]bool{},
		varSrcs:  map[string][]string{},
	}
}

func (w *walker) result() *Result {
	r := &Result{Execs: w.execs, Recursive: w.recurse, Written: w.writtenFiles()}
	if r.Execs == nil {
		r.Execs = []Exec{}
	}
	for i, d := range w.data {
		if !w.dropData[i] {
			r.Data = append(r.Data, d)
		}
	}
	return r
}

// scope is what a command inherits from the code before it.
type scope struct {
	w       *walker  // for the variable limits
	dir     string   // working directory, "" when unknown
	oldDir  string   // the directory before the last cd ($OLDPWD, ~-), "" when unknown
	assigns []Assign // assignments in effect
	origin  Origin
	depth   int             // syntax nesting
	wrap    []string        // wrappers around the code being walked (sudo bash -c '...')
	stdin   *input          // stdin of the code being walked (ssh host <<EOF)
	stdinOK bool            // the code being walked has its stdin given (Exec.Stdin)
	remote  bool            // code that runs on another machine or in a container
	params  *[]arg          // positional parameters $0, $1... when known, else nil
	locals  map[string]bool // in a function: the variables declared local
}

// sub returns a copy for a subshell: changes to it do not leak back.
func (s *scope) sub() *scope {
	c := *s
	c.assigns = slices.Clip(s.assigns)
	c.wrap = slices.Clip(s.wrap)
	return &c
}

// nest returns a copy one syntax level deeper, failing past MaxDepth.
func (w *walker) nest(s *scope) *scope {
	c := s.sub()
	c.depth++
	if c.depth > w.opt.MaxDepth {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
	}
	return c
}

// pipePos is the position of a statement in a pipeline.
type pipePos struct {
	n, stage int
	stdin    *input
	wrap     []string // "time" keyword
}

// input is what a command reads on stdin, when known.
type input struct {
	text    string           // the text, when static
	static  bool             // text is exactly what is read
	decoded string           // decoders the text passed through (static.go)
	srcs    []string         // commands whose output it is
	file    bool             // stdin is a file (< file): a script, not unknown code
	path    arg              // that file's name
	dataIdx int              // Data entry of the text, dropped when it turns out to be code; -1 if none
	list    *programs.Listed // the paths the text names, when a lister wrote it (fanout.go)
}

// output is what a statement writes on stdout, for the next pipeline stage.
type output struct {
	text   string
	static bool
	srcs   []string
	data   int // Data entry of the text, -1 if none
	// decoded names the decoders the text passed through (static.go);
	// shellEcho is set for echo text with a backslash and no -e/-E, which
	// dash and zsh would decode and bash not: not computed into words.
	decoded   string
	shellEcho bool
	list      *programs.Listed // the paths the text names, when a lister wrote it
	// file is the one file a plain `cat FILE` printed: the next stage
	// reads that file as `< FILE` would (cat x.sh | sh is sh < x.sh).
	file *arg
}

func (w *walker) stmts(sc *scope, list []*syntax.Stmt, pp pipePos) {
	for _, s := range list {
		w.stmt(sc, s, pp)
	}
}

func (w *walker) stmt(sc *scope, s *syntax.Stmt, pp pipePos) output {
	if s.Background {
		sc = sc.sub() // runs asynchronously: cd in it does not apply after
	}
	switch c := s.Cmd.(type) {
	case nil:
		// A redirection alone ("> file") truncates or creates the file: it is
		// reported as the null command ":" carrying the redirects.
		rds, _ := w.redirects(sc, s.Redirs)
		cmd := w.newCmd(sc, pp, []arg{{Word: Word{Value: ":", Static: true}}}, nil, rds, nil)
		w.emit(cmd)
	case *syntax.CallExpr:
		return w.call(sc, c, s.Redirs, pp)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			return w.pipeline(sc, s, pp) // its last stage's output ($(echo mr | rev))
		}
		// && and || run their operands in order in the same shell; any
		// operand after the first may not run, so a variable keeps its value
		// after the list only when it is the same whichever stopped it.
		// (A cd is still applied: cd dir && cmd, cd dir || exit.)
		var lists [][]Assign
		params := sc.params
		for _, x := range flatten(s, syntax.AndStmt, syntax.OrStmt) {
			w.stmt(sc, x, pp)
			lists = append(lists, sc.assigns)
			if sc.params != params {
				params = nil // set -- in an operand that may not run
			}
		}
		sc.mergeLists(lists)
		if params == nil {
			sc.params = nil
		}
	case *syntax.Subshell:
		w.stmts(w.nest(sc), c.Stmts, pp)
	case *syntax.Block:
		inner := w.nest(sc)
		w.stmts(inner, c.Stmts, pp)
		sc.dir, sc.assigns, sc.params = inner.dir, inner.assigns, inner.params
	case *syntax.IfClause:
		w.ifClause(sc, c, pp)
	case *syntax.WhileClause:
		// The body runs zero or more times, the condition at least once.
		inner := w.nest(sc)
		w.effects(s).apply(inner)
		w.stmts(inner, c.Cond, pp)
		body := inner.sub()
		w.bindReadLoop(body, s, c, pp) // ls DIR | while read f: f is one of DIR's names (globvar.go)
		w.stmts(body, c.Do, pp)
		sc.merge([]*scope{inner, body})
	case *syntax.ForClause:
		w.forClause(sc, s, c, pp)
	case *syntax.CaseClause:
		w.caseClause(sc, c, pp)
	case *syntax.FuncDecl:
		// Judged when called (see run); a function never called is harmless.
		if c.Name != nil && c.Body != nil {
			w.funcs[c.Name.Value] = c.Body
		}
		for _, n := range c.Names {
			if c.Body != nil {
				w.funcs[n.Value] = c.Body
			}
		}
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		w.findSubsts(sc, c)
	case *syntax.DeclClause:
		// export/declare/local/readonly/typeset: assignments that persist.
		if argv, ok := declListing(c); ok {
			// export -p, declare -f, export NAME: no assignment, but it
			// runs (and may print the environment): an Exec.
			w.decl(sc, c)
			rds, stdin := w.redirects(sc, s.Redirs)
			return w.plain(w.newCmd(sc, pp, argv, nil, rds, stdin), argv[0].Value)
		}
		w.decl(sc, c)
		w.redirectsOnly(sc, s.Redirs, pp)
		return output{data: -1}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			pp.wrap = append(slices.Clip(pp.wrap), "time")
			return w.stmt(sc, c.Stmt, pp)
		}
	case *syntax.CoprocClause:
		if c.Stmt != nil {
			// its stdin is whatever the script later writes to
			// ${COPROC[1]}: not known here (coproc sh reads commands)
			in := w.nest(sc)
			in.stdin, in.stdinOK = &input{dataIdx: -1}, true
			w.stmt(in, c.Stmt, pp)
		}
	default:
		w.findSubsts(sc, c)
	}
	w.redirectsOnly(sc, s.Redirs, pp)
	return output{data: -1}
}

// redirectsOnly reports redirects of a compound command ({ ...; } > f) as
// the null command carrying them, so that the file effect is not lost.
func (w *walker) redirectsOnly(sc *scope, redirs []*syntax.Redirect, pp pipePos) {
	if len(redirs) == 0 {
		return
	}
	rds, _ := w.redirects(sc, redirs)
	if len(rds) == 0 {
		return
	}
	w.emit(w.newCmd(sc, pp, []arg{{Word: Word{Value: ":", Static: true}}}, nil, rds, nil))
}

// flatten lists the operands of a chain of binary commands with the given
// operators, left to right, without recursion (chains can be very long).
func flatten(s *syntax.Stmt, ops ...syntax.BinCmdOperator) []*syntax.Stmt {
	var out []*syntax.Stmt
	stack := []*syntax.Stmt{s}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// The root is always split (the caller handles its own flags);
		// an operand with redirects or & of its own is walked as a unit.
		if b, ok := x.Cmd.(*syntax.BinaryCmd); ok && slices.Contains(ops, b.Op) && (x == s || len(x.Redirs) == 0 && !x.Background) {
			stack = append(stack, b.Y, b.X)
			continue
		}
		out = append(out, x)
	}
	return out
}

// pipeline walks the stages of a pipeline; each runs in a subshell and
// reads the previous stage's output.
func (w *walker) pipeline(sc *scope, s *syntax.Stmt, pp pipePos) output {
	stages := flatten(s, syntax.Pipe, syntax.PipeAll)
	w.pipes++
	n := w.pipes
	var prev *output
	for i, st := range stages {
		spp := pipePos{n: n, stage: i, wrap: pp.wrap}
		if prev != nil && prev.file != nil && !prev.static {
			spp.stdin = &input{file: true, path: *prev.file, srcs: prev.srcs, dataIdx: -1}
		} else if prev != nil {
			spp.stdin = &input{text: prev.text, static: prev.static, srcs: prev.srcs, dataIdx: prev.data, decoded: prev.decoded, list: prev.list}
		} else {
			spp.stdin = pp.stdin
		}
		before := len(w.execs)
		out := w.stmt(w.nest(sc), st, spp)
		if !out.static && len(out.srcs) == 0 {
			// A compound stage: its output comes from every command in it.
			for _, e := range w.execs[before:] {
				if e.Pipeline == n && e.Stage == i && e.Name != "" && !slices.Contains(out.srcs, e.Name) {
					out.srcs = append(out.srcs, e.Name)
				}
			}
		}
		prev = &out
	}
	if prev == nil || s.Background || len(s.Redirs) > 0 {
		return output{data: -1}
	}
	return *prev
}

// call walks a simple command.
func (w *walker) call(sc *scope, ce *syntax.CallExpr, redirs []*syntax.Redirect, pp pipePos) output {
	var prefix []Assign
	for _, as := range ce.Assigns {
		prefix = append(prefix, w.assign(sc, as))
	}
	if len(ce.Args) == 0 {
		// NAME=VALUE alone sets a shell variable for what follows.
		for _, a := range prefix {
			sc.setAssign(a)
		}
		w.redirectsOnly(sc, redirs, pp)
		return output{data: -1}
	}
	args := make([]arg, 0, len(ce.Args))
	for _, wd := range ce.Args {
		args = append(args, w.fields(sc, wd)...)
	}
	if len(args) == 0 {
		// Every word expanded to nothing ($x with x empty): only the
		// redirects and prefix assignments remain, as for NAME=VALUE alone.
		for _, a := range prefix {
			sc.setAssign(a)
		}
		w.redirectsOnly(sc, redirs, pp)
		return output{data: -1}
	}
	rds, stdin := w.redirects(sc, redirs)
	if alt := w.defaultAlt(sc, ce.Args); len(alt) > 0 {
		// ${x:-rm} -rf ~: judged with the default too, in a copy of the
		// scope (what it changes is the written command's to change)
		w.run(sc.sub(), w.newCmd(sc, pp, alt, prefix, rds, stdin))
	}
	c := w.newCmd(sc, pp, args, prefix, rds, stdin)
	out := w.run(sc, c)
	w.noteWrites(c, out)
	return out
}

// newCmd builds the command context for argv in scope sc.
func (w *walker) newCmd(sc *scope, pp pipePos, args []arg, prefix []Assign, rds []Redirect, stdin *input) *cmd {
	c := &cmd{
		argv:     args,
		dir:      sc.dir,
		redirs:   rds,
		origin:   sc.origin,
		remote:   sc.remote,
		params:   sc.params,
		locals:   sc.locals,
		pipeline: pp.n,
		stage:    pp.stage,
	}
	c.wrappers = append(append(c.wrappers, sc.wrap...), pp.wrap...)
	c.inherited = len(c.wrappers)
	c.assigns = sc.assigns // shared: assignment lists are never changed in place
	for _, a := range prefix {
		c.setAssign(a)
	}
	switch {
	case stdin != nil:
		c.stdin = stdin
	case pp.stdin != nil:
		c.stdin = pp.stdin
	case pp.n == 0:
		c.stdin = sc.stdin
	}
	c.stdinOK = c.stdin != nil || pp.stage > 0 || sc.stdinOK
	return c
}

func (w *walker) assign(sc *scope, as *syntax.Assign) Assign {
	a := Assign{}
	if as.Name != nil {
		a.Name = as.Name.Value
	}
	switch {
	case as.Value != nil:
		v := w.word(sc, as.Value)
		a.Value, a.decoded = v.Word, v.decoded
		if len(v.srcs) > 0 && a.Name != "" {
			w.varSrcs[a.Name] = v.srcs
		}
	case as.Array != nil:
		a.Value = Word{Value: w.source(as.Array)}
		a.elems = w.arrayElems(sc, as.Array)
	default:
		a.Value = Word{Static: true}
	}
	if as.Index != nil {
		w.findSubsts(sc, as.Index)
		a.Value.Static = false
	}
	if as.Append && as.Array != nil {
		// a+=(x y): known when a was.
		prev := sc.lookupArray(a.Name)
		if prev == nil || a.elems == nil {
			a.elems = nil
		} else {
			all := append(slices.Clip(*prev), *a.elems...)
			a.elems = &all
		}
		return a
	}
	if as.Append {
		// x+=v: known when x was.
		prev, ok := sc.lookup(a.Name)
		v := a.Value
		a.Value = Word{Value: "$" + a.Name + v.Value}
		if ok && as.Value != nil && v.Static && as.Index == nil {
			w.expanded(len(prev))
			a.Value = Word{Value: prev + v.Value, Static: true}
		}
	}
	w.envCode(sc, a)
	return a
}

// envCode judges a variable whose value runs (programs.EnvCode:
// PROMPT_COMMAND, BASH_ENV, PAGER, NODE_OPTIONS --require ...) as the code
// it runs, where it is set: an interactive shell, a pager or node started
// later runs it, in this command or a later one.
func (w *walker) envCode(sc *scope, a Assign) {
	if programs.EnvCode(a.Name) == "" {
		return
	}
	c := w.newCmd(sc, pipePos{}, []arg{{Word: Word{Value: a.Name, Static: true}}}, nil, nil, nil)
	o := Origin{Kind: OriginShellString, Depth: sc.origin.Depth + 1, Via: "$" + a.Name, Handed: true}
	if !a.Value.Static {
		if programs.EnvCodeDynamic(a.Name) {
			c.runs = &DynamicCode{How: "eval", Sources: w.varSrcs[a.Name]}
			w.emit(c)
		}
		return
	}
	if src := programs.EnvCodeText(a.Name, a.Value.Value); src != "" {
		w.reparse(c, src, o, nil, false)
	}
}

func (s *scope) setAssign(a Assign) {
	if s.w != nil {
		s.w.varOps(len(s.assigns) + 1)
	}
	s.assigns = setAssign(s.assigns, a)
	if len(s.assigns) > maxVars && s.w != nil {
		s.w.fail(&LimitError{Limit: "vars", Max: maxVars})
	}
}

// setAssign replaces a in place or appends it, without touching the
// backing array of the list it was given (scopes and Execs share it). A
// variable keeps its position, which mergeAssigns relies on.
func setAssign(list []Assign, a Assign) []Assign {
	for i, x := range list {
		if x.Name == a.Name {
			out := slices.Clone(list)
			out[i] = a
			return out
		}
	}
	out := make([]Assign, len(list), len(list)+1)
	copy(out, list)
	return append(out, a)
}

// redirects evaluates redirects: file effects, and what the command reads
// on stdin from a heredoc or here-string.
func (w *walker) redirects(sc *scope, redirs []*syntax.Redirect) ([]Redirect, *input) {
	var out []Redirect
	var in *input
	for _, r := range redirs {
		fd := -1
		if r.N != nil {
			if n, err := strconv.Atoi(r.N.Value); err == nil {
				fd = n
			}
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			// the body's substitutions run whatever descriptor it goes to
			h := w.heredoc(sc, r)
			switch {
			case fd > 2:
				w.openFd(fd, h) // exec 3<<EOF ... EOF; bash <&3
			case fd <= 0:
				in = h
			}
			continue
		case syntax.WordHdoc:
			a := w.word(sc, r.Word)
			in = &input{text: a.Value + "\n", static: a.Static, srcs: a.srcs, dataIdx: -1, decoded: a.decoded}
			if fd > 2 {
				w.openFd(fd, in)
			}
			continue
		}
		if r.Word == nil {
			continue
		}
		t := w.word(sc, r.Word)
		if r.Op == syntax.DplIn || r.Op == syntax.DplOut {
			// 2>&1, >&-: file descriptors, not files.
			if n, err := strconv.Atoi(t.Value); err == nil || t.Value == "-" {
				if r.Op == syntax.DplIn && (fd == -1 || fd == 0) && n > 2 {
					// bash <&3: what descriptor 3 holds, unknown when it was
					// not opened here with known content
					if o := w.fds[n]; o != nil {
						cp := *o
						in = &cp
					} else {
						in = &input{dataIdx: -1}
					}
				}
				continue
			}
			if r.Op == syntax.DplIn && !t.Static && (fd == -1 || fd == 0) {
				in = &input{dataIdx: -1} // <&$fd
				continue
			}
		}
		if r.Op == syntax.RdrIn && fd > 2 {
			w.openFd(fd, &input{file: true, path: t, dataIdx: -1})
		}
		if (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) && (fd == -1 || fd == 0) {
			in = &input{file: true, path: t, dataIdx: -1}
			if ps := procStdin(r.Word, t); ps != nil {
				in = ps // sh < <(curl ...): the substitution's output, not a file
			}
		}
		target := t.Word
		if target.Static {
			target.Value = resolve(sc.dir, target.Value)
		}
		out = append(out, Redirect{Op: r.Op.String(), Fd: fd, Target: target})
	}
	return out, in
}

// openFd records what descriptor fd holds from now on.
func (w *walker) openFd(fd int, in *input) {
	if w.fds == nil {
		w.fds = map[int]*input{}
	}
	w.fds[fd] = in
}

// heredoc reads a here-document body. With a quoted delimiter (<<'EOF')
// the body is literal text; unquoted, substitutions in it run.
func (w *walker) heredoc(sc *scope, r *syntax.Redirect) *input {
	if r.Hdoc == nil {
		return &input{static: true, dataIdx: -1}
	}
	if quotedDelim(r.Word) {
		text := ""
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				text += l.Value
			}
		}
		return &input{text: text, static: true, dataIdx: -1}
	}
	var wb wordBuf
	wb.static = true
	for _, p := range r.Hdoc.Parts {
		w.part(sc, p, &wb, false, true)
	}
	return &input{text: wb.b.String(), static: wb.static, srcs: wb.srcs, dataIdx: -1, decoded: wb.decoded}
}

func quotedDelim(wd *syntax.Word) bool {
	if wd == nil {
		return false
	}
	for _, p := range wd.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

// resolve makes a static path absolute against dir when dir is known.
func resolve(dir, p string) string {
	if p == "" || path.IsAbs(p) || dir == "" || strings.HasPrefix(p, "~") {
		return p
	}
	return path.Join(dir, p)
}

// findSubsts walks any node for command and process substitutions, which
// run wherever they appear (arithmetic, [[ ]], array values, ...).
func (w *walker) findSubsts(sc *scope, n syntax.Node) {
	depth := 0
	syntax.Walk(n, func(n syntax.Node) bool {
		if n == nil {
			depth--
			return true
		}
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.cmdSubst(sc, n)
			return false
		case *syntax.ProcSubst:
			w.procSubst(sc, n)
			return false
		case *syntax.BinaryArithm, *syntax.UnaryArithm:
			// ((x=5)), let x++, $((x+=1)): x is no longer known.
			if name := arithAssigned(n); name != "" {
				sc.setDynamic(name)
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				sc.setDynamic(n.Param.Value) // ${x:=v} when x was not known set
			}
		}
		depth++
		if depth > lexicalFactor*w.opt.MaxDepth {
			w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
		}
		return true
	})
}

// substStmts walks the statements of a substitution and returns the names
// of the commands in it, whose output the substitution yields.
func (w *walker) substStmts(sc *scope, stmts []*syntax.Stmt, kind, via string) ([]string, *output) {
	inner := w.nest(sc)
	inner.origin = Origin{Kind: kind, Depth: sc.origin.Depth, Via: via}
	inner.stdin = nil
	before := len(w.execs)
	var last *output
	var outs []output
	for _, st := range stmts {
		out := w.stmt(inner, st, pipePos{})
		last = &out
		outs = append(outs, out)
	}
	switch {
	case len(stmts) > 1:
		last = joinOutputs(outs) // $(echo -n r; echo m): each known (static.go)
	case len(stmts) == 0 || !last.static:
		last = nil // only known text (echo, printf, cat <<EOF, pure programs) is known
	}
	var names []string
	for _, e := range w.execs[before:] {
		if e.Name != "" && !slices.Contains(names, e.Name) {
			names = append(names, e.Name)
		}
	}
	return names, last
}

func (w *walker) cmdSubst(sc *scope, cs *syntax.CmdSubst) ([]string, *output) {
	via := "$(...)"
	if cs.Backquotes {
		via = "`...`"
	}
	return w.substStmts(sc, cs.Stmts, OriginSubst, via)
}

func (w *walker) procSubst(sc *scope, ps *syntax.ProcSubst) ([]string, *output) {
	return w.substStmts(sc, ps.Stmts, OriginProcSubst, ps.Op.String()+"...)")
}

// source prints a node back as shell source, for dynamic word values.
func (w *walker) source(n syntax.Node) string {
	if w.printer == nil {
		w.printer = syntax.NewPrinter()
	}
	var b strings.Builder
	if err := w.printer.Print(&b, n); err != nil {
		return "?"
	}
	return b.String()
}

// emit records one execution.
func (w *walker) emit(c *cmd) {
	w.tick()
	if len(c.argv) > 0 {
		markDecoded(c, "decoded", c.argv[0].decoded) // $(echo cm0= | base64 -d) -rf x
	}
	e := Exec{
		InFile:    w.inFile,
		Argv:      make([]Word, len(c.argv)),
		ExtraArgs: c.extra,
		Wrappers:  slices.Clone(c.wrappers),
		Assigns:   c.assigns, // shared between Execs, read-only
		Dir:       c.dir,
		Redirects: slices.Clone(c.redirs),
		Origin:    c.origin,
		Pipeline:  c.pipeline,
		Stage:     c.stage,
		RunsCode:  c.runs,
		Synthetic: c.synthetic,
		HelpOnly:  c.help,
		FeedDeep:  c.feed != nil && c.feed.Deep,
		Remote:    c.remote,
		Stdin:     c.stdinOK,
	}
	for i, a := range c.argv {
		e.Argv[i] = a.Word
	}
	if in := c.stdin; in != nil && !in.file && in.text != "" {
		e.StdinText = &Word{Value: in.text, Static: in.static}
	}
	if len(c.argv) > 0 && c.argv[0].Static {
		e.Name = baseName(c.argv[0].Value)
	}
	e.Dynamic = e.Name == "" // unknown, or empty: not a command we can name
	if c.feed != nil && c.extra {
		for _, p := range c.feed.Paths {
			e.Feed = append(e.Feed, Word{Value: p, Static: true})
		}
	}
	w.execs = append(w.execs, e)
}

// tick counts work against MaxExecs: every execution and every function or
// alias expansion, so that expansions that emit nothing are bounded too.
func (w *walker) tick() {
	w.work++
	if w.work > w.opt.MaxExecs {
		w.fail(&LimitError{Limit: "execs", Max: w.opt.MaxExecs})
	}
}

func (w *walker) addData(text, why string) int {
	w.data = append(w.data, Data{Text: text, Why: why})
	return len(w.data) - 1
}

// baseName is the command name without directory or leading backslash.
func baseName(s string) string {
	s = strings.TrimLeft(s, `\`)
	if s == "" {
		return ""
	}
	return path.Base(s)
}
