package parse

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Static variable tracking. A variable assigned a static value earlier in
// the same source (x=v, export/declare/local/readonly x=v, x+=v) is
// substituted into later $x, ${x}, "$x" and "${x}". The assignments in
// effect are the scope's assigns (copied for subshells, $(...) and
// pipeline stages, so they do not leak out). A variable that is absent, or
// present with a non-static value, is unknown: the word stays dynamic.

// maxUnroll bounds static for loops: a loop over at most maxUnroll values
// is judged once per value, and nested unrolled loops share the budget
// (their product of values stays under it), so unrolling never blows up.
const maxUnroll = 16

// unrollBudget is the product of the value counts of nested unrolled loops.
const unrollBudget = 64

// maxUnrollBytes bounds the source judged again by unrolling one loop.
const maxUnrollBytes = 64 << 10

// expandFactor bounds the bytes of variable values substituted into words
// as a multiple of MaxBytes (x=$x$x doubling, $x repeated): past it the
// input is over the bytes limit.
const expandFactor = 4

// maxVars bounds the distinct variables tracked in one scope, and
// varOpsFactor (times MaxExecs) the assignment entries copied in all (an
// assignment copies the list: lists are shared, never changed in place),
// so that input made of many assignments, or a function assigning many
// variables called many times, is refused quickly (LimitError "vars").
const (
	maxVars      = 1024
	varOpsFactor = 200
)

func (w *walker) varOps(n int) {
	w.varWork += n
	if w.varWork > varOpsFactor*w.opt.MaxExecs {
		w.fail(&LimitError{Limit: "vars", Max: maxVars})
	}
}

// volatile names are set by the shell itself; an assignment to them does
// not make later expansions known (or they follow cd, tracked as Dir).
var volatile = map[string]bool{
	"RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true, "BASHPID": true,
	"EPOCHSECONDS": true, "EPOCHREALTIME": true, "BASH_COMMAND": true, "FUNCNAME": true,
	"PWD": true, "OLDPWD": true, "REPLY": true, "OPTARG": true, "OPTIND": true,
	"BASH_REMATCH": true, "PIPESTATUS": true, "HISTCMD": true, "BASH_SUBSHELL": true,
	"COMP_WORDS": true, "DIRSTACK": true, "GROUPS": true, "PPID": true, "UID": true, "EUID": true,
}

// isName reports a shell variable name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// lookup returns the value of a variable assigned in scope, when static.
func (s *scope) lookup(name string) (string, bool) {
	if volatile[name] || !isName(name) {
		return "", false
	}
	for i := len(s.assigns) - 1; i >= 0; i-- {
		if a := s.assigns[i]; a.Name == name {
			return a.Value.Value, a.Value.Static
		}
	}
	return "", false
}

// arrayElems evaluates the elements of an array value: the list when every
// element is static and none has an index ([k]=v), else nil. Substitutions
// in it are walked either way.
func (w *walker) arrayElems(sc *scope, ar *syntax.ArrayExpr) *[]string {
	for _, e := range ar.Elems {
		if e.Index != nil || e.Value == nil {
			w.findSubsts(sc, ar)
			return nil
		}
	}
	var out []string
	known := true
	for _, e := range ar.Elems {
		for _, f := range w.fields(sc, e.Value) {
			known = known && f.Static
			out = append(out, f.Value)
		}
	}
	if !known || len(out) > maxVars {
		return nil
	}
	return &out
}

// lookupArray returns the elements of an array assigned in scope, when known.
func (s *scope) lookupArray(name string) *[]string {
	if volatile[name] {
		return nil
	}
	for i := len(s.assigns) - 1; i >= 0; i-- {
		if a := s.assigns[i]; a.Name == name {
			return a.elems
		}
	}
	return nil
}

// arrayParam resolves ${a[N]}, ${a[*]}, ${a[@]} (joined by spaces: split
// by the caller when unquoted; "${a[@]}" alone is quotedAt's), ${#a[@]}
// and $a (the first element) of a known array.
func (w *walker) arrayParam(sc *scope, p *syntax.ParamExp, dq bool) (string, bool) {
	if p.Param == nil || p.Excl || p.Width || p.Slice != nil || p.Repl != nil || p.Names != 0 ||
		p.NestedParam != nil || len(p.Modifiers) > 0 || p.Exp != nil {
		return "", false
	}
	elems := sc.lookupArray(p.Param.Value)
	if elems == nil {
		return "", false
	}
	idx := "0"
	if p.Index != nil {
		wd, ok := p.Index.(*syntax.Word)
		if !ok {
			return "", false
		}
		idx = wd.Lit()
	}
	switch {
	case idx == "@" || idx == "*":
		if p.Length {
			return itoa(len(*elems)), true
		}
		if idx == "@" && dq {
			return "", false // "x${a[@]}y" makes several words: not modelled
		}
		sep, ok := " ", true
		if idx == "*" && dq {
			sep, ok = sc.joinSep() // "${a[*]}" joins with IFS's first character
		}
		if !ok {
			return "", false
		}
		v := strings.Join(*elems, sep)
		w.expanded(len(v))
		return v, true
	case p.Length:
		return "", false
	}
	n, err := strconv.Atoi(idx)
	if err != nil || n < 0 {
		return "", false
	}
	if n >= len(*elems) {
		return "", true
	}
	w.expanded(len((*elems)[n]))
	return (*elems)[n], true
}

// dynamicWord is the value of a variable that cannot be known.
func dynamicWord(name string) Word { return Word{Value: "$" + name} }

// setDynamic marks a variable as assigned a value that cannot be known.
func (s *scope) setDynamic(name string) {
	if name != "" {
		s.setAssign(Assign{Name: name, Value: dynamicWord(name)})
	}
}

// allDynamic marks every variable in scope unknown: code that could not be
// read ran in this shell (eval "$X", source FILE) and may have set any.
func (s *scope) allDynamic() {
	out := make([]Assign, len(s.assigns))
	for i, a := range s.assigns {
		out[i] = Assign{Name: a.Name, Value: Word{Value: a.Value.Value}}
	}
	s.assigns = out
}

// unset removes a variable: it is then unknown (it may be set again by
// nothing we see, but an expansion of it is not known to be anything).
func (s *scope) unset(name string) {
	s.assigns = slices.DeleteFunc(slices.Clone(s.assigns), func(a Assign) bool { return a.Name == name })
}

// mergeAssigns returns the assignments after one of several paths ran
// (branches of if/case, operands of && and ||, zero or more loop
// iterations): a variable keeps its value only when every path agrees.
//
// Lists derived from one another keep each variable at its position
// (setAssign replaces in place, appends new names), so the common case is
// a position-by-position comparison; variables beyond the shortest list
// were set on some paths only and are unknown after.
func mergeAssigns(lists [][]Assign) []Assign {
	if len(lists) == 0 {
		return nil
	}
	first := lists[0]
	m := len(first)
	for _, l := range lists[1:] {
		m = min(m, len(l))
	}
	for i := 0; i < m; i++ {
		for _, l := range lists[1:] {
			if l[i].Name != first[i].Name {
				return mergeByName(lists)
			}
		}
	}
	var out []Assign
	for i := 0; i < m; i++ {
		for _, l := range lists[1:] {
			if l[i] != first[i] {
				if out == nil {
					out = slices.Clone(first[:m])
				}
				out[i] = Assign{Name: first[i].Name, Value: dynamicWord(first[i].Name)}
				break
			}
		}
	}
	longer := false
	for _, l := range lists {
		longer = longer || len(l) > m
	}
	if !longer {
		if out == nil {
			return first
		}
		return out
	}
	if out == nil {
		out = slices.Clone(first[:m])
	}
	seen := map[string]bool{}
	for _, l := range lists {
		for _, a := range l[m:] {
			if !seen[a.Name] {
				seen[a.Name] = true
				out = append(out, Assign{Name: a.Name, Value: dynamicWord(a.Name)})
			}
		}
	}
	return out
}

// mergeByName merges lists whose variables are in different orders.
func mergeByName(lists [][]Assign) []Assign {
	maps := make([]map[string]Assign, len(lists))
	for i, l := range lists {
		maps[i] = make(map[string]Assign, len(l))
		for _, a := range l {
			maps[i][a.Name] = a
		}
	}
	var out []Assign
	seen := map[string]bool{}
	for _, l := range lists {
		for _, a := range l {
			if seen[a.Name] {
				continue
			}
			seen[a.Name] = true
			v := a
			for _, m := range maps {
				if ov, ok := m[a.Name]; !ok || ov != a {
					v = Assign{Name: a.Name, Value: dynamicWord(a.Name)}
					break
				}
			}
			out = append(out, v)
		}
	}
	return out
}

func findAssign(list []Assign, name string) (Word, bool) {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Name == name {
			return list[i].Value, true
		}
	}
	return Word{}, false
}

// merge sets the scope to the state after one of the paths ran: the
// directory is kept only when all paths agree, else it is unknown.
func (s *scope) merge(paths []*scope) {
	if len(paths) == 0 {
		return
	}
	lists := make([][]Assign, len(paths))
	dir, old, params := paths[0].dir, paths[0].oldDir, paths[0].params
	for i, p := range paths {
		lists[i] = p.assigns
		if p.dir != dir {
			dir = ""
		}
		if p.oldDir != old {
			old = ""
		}
		if p.params != params {
			params = nil // set -- on some paths: unknown
		}
	}
	s.dir, s.oldDir, s.params = dir, old, params
	s.mergeLists(lists)
}

// mergeLists sets the assignments to the merge of lists, counting the
// work against the assignment budget.
func (s *scope) mergeLists(lists [][]Assign) {
	if len(lists) > 1 && s.w != nil {
		s.w.varOps(len(lists) * len(lists[0]))
	}
	s.assigns = mergeAssigns(lists)
}

// loopEffects lists what a loop's code may change on a later iteration:
// the variables it assigns, whether it changes directory, and whether it
// runs code that could change anything (eval, source). Functions defined
// in the source and called in it are included.
type loopEffects struct {
	names  map[string]bool
	cd     bool
	all    bool
	params bool // set or shift: positional parameters change
}

func (w *walker) effects(nodes ...syntax.Node) loopEffects {
	ef := loopEffects{names: map[string]bool{}}
	seenFn := map[string]bool{}
	var visit func(n syntax.Node)
	visit = func(root syntax.Node) {
		syntax.Walk(root, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Assign:
				if n.Name != nil {
					ef.names[n.Name.Value] = true
				} else if n.Value != nil {
					ef.all = true // declare "$x=..." or a quoted name=value
				}
			case *syntax.WordIter:
				if n.Name != nil {
					ef.names[n.Name.Value] = true
				}
			case *syntax.BinaryArithm, *syntax.UnaryArithm:
				if name := arithAssigned(n); name != "" {
					ef.names[name] = true
				}
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					break
				}
				name := n.Args[0].Lit()
				switch name {
				case "cd", "pushd", "popd":
					ef.cd = true
				case "eval", "source", ".":
					ef.all, ef.cd, ef.params = true, true, true
				case "set", "shift":
					ef.params = true
				case "read", "mapfile", "readarray", "getopts", "printf", "unset", "export", "declare", "typeset", "local", "readonly":
					for _, a := range n.Args[1:] {
						v, _, _ := strings.Cut(a.Lit(), "=")
						if isName(v) {
							ef.names[v] = true
						} else if a.Lit() == "" {
							ef.all = true // a name built by expansion
						}
					}
				}
				if body, ok := w.funcs[name]; ok && !seenFn[name] {
					seenFn[name] = true
					visit(body)
				}
			}
			return true
		})
	}
	for _, n := range nodes {
		if n != nil {
			visit(n)
		}
	}
	return ef
}

// enterLoop prepares a scope for a loop body that may run several times:
// what a later iteration may see differently is unknown from the start.
func (ef loopEffects) apply(s *scope) {
	if ef.all {
		s.allDynamic()
	}
	for _, name := range sortedKeys(ef.names) {
		s.setDynamic(name)
	}
	if ef.cd {
		s.dir, s.oldDir = "", ""
	}
	if ef.params {
		s.params = nil
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// arithAssigned returns the variable an arithmetic assignment, ++ or --
// changes, or "".
func arithAssigned(n syntax.Node) string {
	var x syntax.ArithmExpr
	switch n := n.(type) {
	case *syntax.BinaryArithm:
		switch n.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
			syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
			x = n.X
		}
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			x = n.X
		}
	}
	if wd, ok := x.(*syntax.Word); ok {
		if name := wd.Lit(); isName(name) {
			return name
		}
	}
	return ""
}

// expanded counts substituted bytes against the expansion budget.
func (w *walker) expanded(n int) {
	w.expBytes += n
	if w.expBytes > expandFactor*w.opt.MaxBytes {
		w.fail(&LimitError{Limit: "bytes", Max: w.opt.MaxBytes})
	}
}

// varParam resolves a parameter expansion of a variable assigned in the
// same source: $x, ${x}, ${#x}, ${x:-d} / ${x-d} / ${x:+a} / ${x+a} when
// the outcome is the variable's own value or a static alternative.
func (w *walker) varParam(sc *scope, p *syntax.ParamExp, dq bool) (string, bool) {
	if v, ok := w.arrayParam(sc, p, dq); ok {
		return v, true
	}
	if p.Param == nil || p.Excl || p.Width || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	v, ok := sc.lookup(p.Param.Value)
	if !ok {
		return "", false
	}
	if p.Length {
		if p.Exp != nil {
			return "", false
		}
		return itoa(utf8.RuneCountInString(v)), true
	}
	if p.Exp == nil {
		w.expanded(len(v))
		return v, true
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.AssignUnset: // set: its value
		w.expanded(len(v))
		return v, true
	case syntax.DefaultUnsetOrNull, syntax.AssignUnsetOrNull:
		if v != "" {
			w.expanded(len(v))
			return v, true
		}
		if def, ok := staticLit(p.Exp.Word); ok && p.Exp.Op == syntax.DefaultUnsetOrNull {
			return def, true // known empty: the default
		}
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if v == "" && p.Exp.Op == syntax.AlternateUnsetOrNull {
			return "", true
		}
		if alt, ok := staticLit(p.Exp.Word); ok {
			return alt, true
		}
	}
	return "", false
}

// staticLit is the value of a word made only of literal text and quotes.
func staticLit(wd *syntax.Word) (string, bool) {
	if wd == nil {
		return "", true
	}
	var b strings.Builder
	for _, p := range wd.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			s, glob := unescapeUnquoted(p.Value)
			if glob {
				return "", false
			}
			b.WriteString(s)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}

// builtinVars applies what read, mapfile, getopts, printf -v and unset do
// to variables of the shell they run in.
func (w *walker) builtinVars(sc *scope, c *cmd, name string) {
	args := c.argv[1:]
	operands := func(withArg string) []arg {
		i, flags := scanOpts(args, optSpec{Short: withArg})
		if a, ok := flags["a"]; ok && name == "read" {
			sc.setDynamic(a)
		}
		if v, ok := flags["v"]; ok && name == "printf" {
			sc.setDynamic(v)
		}
		return args[min(i, len(args)):]
	}
	names := func(list []arg) {
		for _, a := range list {
			if !a.Static {
				sc.allDynamic()
				return
			}
			sc.setDynamic(a.Value)
		}
	}
	switch name {
	case "read":
		i, flags := scanOpts(args, optSpec{Short: "adinNptu"})
		ops := operands("adinNptu")
		if len(ops) == 0 {
			return // REPLY, volatile
		}
		names(ops)
		// read x y <<< 'a b c' from known text: x=a, y='b c'.
		plain := len(flags) == len(optsIn(flags, "rspt"))
		if c.stdin == nil || !c.stdin.static || c.stdin.file || !plain || i > len(args) || !allStatic(ops) {
			return
		}
		line, _, _ := strings.Cut(c.stdin.text, "\n")
		_, raw := flags["r"]
		if !raw && strings.Contains(line, `\`) {
			return // backslash processing: unknown
		}
		// the separators: IFS=, read (a prefix assignment) or an earlier
		// IFS=...; one that is not known leaves the names unknown
		ifs := " \t\n"
		v, ok := findAssign(c.assigns, "IFS")
		if !ok {
			v, ok = findAssign(sc.assigns, "IFS")
		}
		if ok && !v.Static {
			return
		} else if ok {
			ifs = v.Value
		}
		white := ""
		for _, ch := range " \t\n" {
			if strings.ContainsRune(ifs, ch) {
				white += string(ch)
			}
		}
		for k, a := range ops {
			line = strings.TrimLeft(line, white)
			v := strings.TrimRight(line, white)
			if k < len(ops)-1 {
				if j := strings.IndexAny(line, ifs); j >= 0 && ifs != "" {
					v, line = line[:j], line[j+1:]
				} else {
					line = ""
				}
			} else if ifs != "" && white != ifs {
				// the last name takes the rest, less one trailing
				// non-blank separator
				v = strings.TrimRight(v, white)
			}
			sc.setAssign(Assign{Name: a.Value, Value: Word{Value: v, Static: true}})
		}
	case "mapfile", "readarray":
		ops := operands("dnOsuCc")
		if len(ops) > 0 {
			names(ops[len(ops)-1:])
		}
	case "set":
		// set [options] [--] [ARGS]: ARGS become $1...; options alone
		// leave them.
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case !a.Static:
				sc.params = nil // an option or the parameters: unknown
				return
			case a.Value == "--":
				sc.setParams(args[i+1:])
				return
			case a.Value == "-o" || a.Value == "+o":
				i++
			case strings.HasPrefix(a.Value, "-") || strings.HasPrefix(a.Value, "+"):
				if a.Value == "-" { // set - ARGS: like --
					sc.setParams(args[i+1:])
					return
				}
			default:
				sc.setParams(args[i:])
				return
			}
		}
	case "shift":
		n := 1
		if len(args) > 0 {
			n = -1
			if args[0].Static {
				if v, err := strconv.Atoi(args[0].Value); err == nil && v >= 0 {
					n = v
				}
			}
		}
		if sc.params == nil || n < 0 {
			sc.params = nil
			return
		}
		ps := *sc.params
		if n < len(ps) { // more than $# fails and shifts nothing
			rest := append([]arg{ps[0]}, ps[1+n:]...)
			sc.params = &rest
		}
	case "getopts":
		if len(args) >= 2 {
			names(args[1:2])
		}
	case "printf":
		operands("v")
		w.printfVar(sc, args) // printf -v x '%s' rm: x is known (static.go)
	case "export", "declare", "typeset", "local", "readonly":
		// Reached as a command (builtin export x=v): names and values are
		// words, read like declare 'x=v'.
		for _, a := range args {
			n, v, ok := strings.Cut(a.Value, "=")
			switch {
			case !a.Static:
				sc.allDynamic()
				return
			case strings.HasPrefix(a.Value, "-") || strings.HasPrefix(a.Value, "+"):
			case ok && isName(n) && name != "local" && name != "declare" && name != "typeset":
				sc.setAssign(Assign{Name: n, Value: Word{Value: v, Static: true}})
			default:
				sc.setDynamic(n)
			}
		}
	case "unset":
		i, flags := scanOpts(args, optSpec{})
		if _, f := flags["f"]; f {
			return
		}
		for _, a := range args[min(i, len(args)):] {
			if !a.Static {
				sc.allDynamic()
				return
			}
			if n, _, ok := strings.Cut(a.Value, "["); ok {
				sc.setDynamic(n) // unset 'a[0]': an element
				continue
			}
			sc.unset(a.Value)
		}
	}
}

// declListing returns the argv of a declaration that assigns nothing
// (export -p, declare -f NAME, export NAME), when every word is a name or
// a literal option; else false.
func declListing(c *syntax.DeclClause) ([]arg, bool) {
	if c.Variant == nil {
		return nil, false
	}
	argv := []arg{{Word: Word{Value: c.Variant.Value, Static: true}}}
	for _, as := range c.Args {
		switch {
		case as.Name != nil && as.Value == nil && as.Array == nil && !as.Append && as.Index == nil:
			argv = append(argv, arg{Word: Word{Value: as.Name.Value, Static: true}})
		case as.Name == nil && as.Value != nil:
			v := as.Value.Lit()
			if !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
				return nil, false
			}
			argv = append(argv, arg{Word: Word{Value: v, Static: true}})
		default:
			return nil, false
		}
	}
	return argv, true
}

// setParams sets $1... to args, keeping $0.
func (s *scope) setParams(args []arg) {
	zero := arg{Word: Word{Value: "$0"}}
	if s.params != nil && len(*s.params) > 0 {
		zero = (*s.params)[0]
	}
	ps := append([]arg{zero}, args...)
	s.params = &ps
}

// decl applies export/declare/local/readonly/typeset to the scope.
func (w *walker) decl(sc *scope, c *syntax.DeclClause) {
	variant := ""
	if c.Variant != nil {
		variant = c.Variant.Value
	}
	flags := ""
	naked := map[*syntax.Assign]arg{} // option or quoted words, evaluated once
	for _, as := range c.Args {
		if as.Name == nil && as.Value != nil {
			v := w.word(sc, as.Value)
			naked[as] = v
			if v.Static && (strings.HasPrefix(v.Value, "-") || strings.HasPrefix(v.Value, "+")) {
				flags += v.Value[1:]
			}
		}
	}
	// declare and typeset in a function make locals, unless -g.
	local := sc.locals != nil && (variant == "local" || (variant == "declare" || variant == "typeset") && !strings.Contains(flags, "g"))
	for _, as := range c.Args {
		if as.Name == nil {
			v, has := naked[as]
			if !has || v.Static && (strings.HasPrefix(v.Value, "-") || strings.HasPrefix(v.Value, "+")) {
				continue
			}
			n, val, ok := strings.Cut(v.Value, "=")
			switch {
			case !v.Static:
				sc.allDynamic() // declare "$n=..." sets a name we cannot read
			case ok && isName(n):
				// declare 'x=v': a quoted word still assigns.
				w.declared(sc, Assign{Name: n, Value: Word{Value: val, Static: true}}, flags, local)
			}
			continue
		}
		if as.Value == nil && as.Array == nil && !as.Append {
			// export x, local x: a local without a value hides the global.
			if local || strings.ContainsAny(flags, "ilunaA") {
				if local {
					sc.locals[as.Name.Value] = true
				}
				sc.setDynamic(as.Name.Value)
			}
			continue
		}
		w.declared(sc, w.assign(sc, as), flags, local)
	}
}

func (w *walker) declared(sc *scope, a Assign, flags string, local bool) {
	if local {
		sc.locals[a.Name] = true
	}
	switch {
	case strings.Contains(flags, "a") && a.elems != nil && !strings.ContainsAny(flags, "inAc"):
		// declare -a a=(x y): an indexed array, known.
	case strings.ContainsAny(flags, "inaAc"):
		a.Value = dynamicWord(a.Name) // integer, nameref, array: not the text
	case strings.Contains(flags, "l"):
		a.Value.Value = strings.ToLower(a.Value.Value)
	case strings.Contains(flags, "u"):
		a.Value.Value = strings.ToUpper(a.Value.Value)
	}
	sc.setAssign(a)
}

// restoreLocals puts back, after a function call, the caller's values of
// the variables the function declared local.
func restoreLocals(caller []Assign, after []Assign, locals map[string]bool) []Assign {
	if len(locals) == 0 {
		return after
	}
	out := slices.DeleteFunc(slices.Clone(after), func(a Assign) bool { return locals[a.Name] })
	for _, name := range sortedKeys(locals) {
		if v, ok := findAssign(caller, name); ok {
			out = append(out, Assign{Name: name, Value: v})
		}
	}
	return out
}

// ifClause walks if/elif/else: each condition runs on the path where the
// ones before it failed, each branch from its condition; afterwards a
// variable or the directory is known only when every path agrees (no
// else: the path where no branch ran counts too).
func (w *walker) ifClause(sc *scope, c *syntax.IfClause, pp pipePos) {
	cur := w.nest(sc)
	var outs []*scope
	hasElse := false
	for ic := c; ic != nil; ic = ic.Else {
		if len(ic.Cond) == 0 && ic != c {
			hasElse = true
		}
		w.stmts(cur, ic.Cond, pp)
		branch := cur.sub()
		w.stmts(branch, ic.Then, pp)
		outs = append(outs, branch)
	}
	if !hasElse {
		outs = append(outs, cur)
	}
	sc.merge(outs)
}

// caseClause walks case: each item's body from the state after the word
// and the patterns; without a * item, no body may run.
func (w *walker) caseClause(sc *scope, c *syntax.CaseClause, pp pipePos) {
	cur := w.nest(sc)
	w.word(cur, c.Word)
	var outs []*scope
	catchAll := false
	for _, it := range c.Items {
		for _, p := range it.Patterns {
			w.word(cur, p)
			if p.Lit() == "*" {
				catchAll = true
			}
		}
	}
	for _, it := range c.Items {
		branch := cur.sub()
		w.stmts(branch, it.Stmts, pp)
		outs = append(outs, branch)
	}
	if !catchAll {
		outs = append(outs, cur)
	}
	sc.merge(outs)
}

// forClause walks a for loop. Over a short list (for d in / ~), the body
// is judged once per value with the variable bound to it: a static word,
// or a glob whose matches it takes one at a time (for f in ~/Documents/*:
// "$f" is read as that pattern, globvar.go); a word only known at run time
// leaves it unknown. Over anything else ($(...), "$@", C-style, select)
// the variable is unknown and the body is judged once, with what it
// changes unknown from the start (a later iteration sees it).
func (w *walker) forClause(sc *scope, s *syntax.Stmt, c *syntax.ForClause, pp pipePos) {
	inner := w.nest(sc)
	var items []arg
	known := false
	name := ""
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		for _, it := range l.Items {
			items = append(items, w.fields(inner, it)...)
		}
		if l.Name != nil {
			name = l.Name.Value
		}
		// The body's source size times the values bounds the work too.
		body := int(c.DonePos.Offset()) - int(c.DoPos.Offset())
		known = l.InPos.IsValid() && !c.Select && len(items) > 0 && len(items) <= maxUnroll &&
			max(w.unroll, 1)*len(items) <= unrollBudget && body*len(items) <= maxUnrollBytes
	case *syntax.CStyleLoop:
		w.findSubsts(inner, l)
	}
	if !known {
		w.effects(s).apply(inner)
		inner.setDynamic(name)
		body := inner.sub()
		w.stmts(body, c.Do, pp)
		sc.merge([]*scope{inner, body})
		return
	}
	saved := w.unroll
	w.unroll = max(w.unroll, 1) * len(items)
	defer func() { w.unroll = saved }()
	var outs []*scope
	for _, it := range items {
		if it.Static {
			inner.setAssign(Assign{Name: name, Value: it.Word})
		} else if isPattern(it) {
			inner.setAssign(Assign{Name: name, Value: it.Word, pattern: true})
		} else {
			inner.setDynamic(name)
		}
		w.stmts(inner, c.Do, pp)
		outs = append(outs, inner.sub())
	}
	// break and continue may end an iteration early: keep what all agree on.
	sc.merge(outs)
}

// optsIn returns the flags among those listed.
func optsIn(flags map[string]string, list string) []string {
	var out []string
	for k := range flags {
		if len(k) == 1 && strings.Contains(list, k) {
			out = append(out, k)
		}
	}
	return out
}
