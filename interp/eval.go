package interp

import (
	"path"
	"strings"
)

// val is the value of an expression as far as it can be known.
type val struct {
	s      string // the string (or the expression's source when !static)
	static bool
	list   []val // a literal list or tuple
	isList bool
	kw     map[string]val // a literal dict/object/hash: its static keys
	ref    string         // what the value names: a module, function or object ("os", "os.path.join", "socket")
	env    bool           // the whole environment flows in it
	srcs   []string       // what produced it: "decode", "network"
	num    int
	isNum  bool
	// tmpl is s with each unknown part written ${_interp}, for a lenient
	// shell reading of a line built from known and unknown parts.
	tmpl string
	// elem is what iterating over the value yields, when known (os.walk,
	// glob.glob: pyiter.go); deep: a path pattern that ranges over the
	// whole tree below its directory (os.walk's root, rglob).
	elem *val
	deep bool
}

// template is v's text with unknown parts as ${_interp}.
func (v val) template() string {
	switch {
	case v.static && !v.isList:
		return v.s
	case v.tmpl != "":
		return v.tmpl
	}
	return unknownPart
}

// unknownPart stands for a value only known at run time.
const unknownPart = "${_interp}"

func lit(s string) val { return val{s: s, static: true} }

func unknown(n *node) val {
	if n == nil {
		return val{}
	}
	t := n.text()
	if len(t) > 200 {
		t = t[:200]
	}
	return val{s: t}
}

func (v val) str() Str { return Str{Value: v.s, Static: v.static && !v.isList} }

// withSrc adds a producer to v.
func (v val) withSrc(s string) val {
	for _, x := range v.srcs {
		if x == s {
			return v
		}
	}
	v.srcs = append(append([]string(nil), v.srcs...), s)
	return v
}

// concat joins two values as strings.
func concat(a, b val) val {
	if len(a.s)+len(b.s) > maxStr {
		// x += x doubles: past the cap the value is not known
		return val{s: "(string over 64 KiB)", env: a.env || b.env, srcs: append(append([]string(nil), a.srcs...), b.srcs...)}
	}
	out := val{s: a.s + b.s, static: a.static && b.static && !a.isList && !b.isList, env: a.env || b.env, deep: a.deep || b.deep}
	if !out.static {
		out.tmpl = a.template() + b.template()
		if len(out.tmpl) > maxStr {
			out.tmpl = unknownPart
		}
	}
	out.srcs = append(append(out.srcs, a.srcs...), b.srcs...)
	return out
}

// flow is a value that carries what its parts carried (env, producers)
// but whose text is not known.
func flow(n *node, parts ...val) val {
	v := unknown(n)
	for _, p := range parts {
		v.env = v.env || p.env
		v.srcs = append(v.srcs, p.srcs...)
	}
	return v
}

// arg is one argument of a call.
type arg struct {
	name string // keyword argument name, "" for positional
	v    val
	n    *node
	star bool // *args / ...spread
}

func positional(args []arg) []val {
	var out []val
	for _, a := range args {
		if a.name == "" && !a.star {
			out = append(out, a.v)
		}
	}
	return out
}

func keyword(args []arg, name string) (val, bool) {
	for _, a := range args {
		if a.name == name {
			return a.v, true
		}
	}
	return val{}, false
}

// eval holds one analysis.
type eval struct {
	lang  string
	code  string
	opt   Options
	depth int
	facts Facts
	vars  map[string]val
	// star imports (from os import *): bare names may be their functions.
	star []string
	// socket and dup2 use seen, for the socket-shell pattern.
	socket, dup2 bool
	shellRun     bool
	level        int // nesting of value
	work         int // values computed: bounded by maxWork
	// memo keeps each node's value: a callee and its arguments are read
	// by the call and again by the calls around it.
	memo map[*node]val
	ln   langSpec
}

// langSpec is what a language adds to the evaluator.
type langSpec interface {
	// value evaluates a node of this language (nil: not handled).
	value(e *eval, n *node) (val, bool)
	// visit handles statements and calls while walking; it returns false
	// to skip the node's children.
	visit(e *eval, n *node) bool
}

func newEval(lang, code string, opt Options, depth int) *eval {
	e := &eval{lang: lang, code: code, opt: opt, depth: depth, vars: map[string]val{}, memo: map[*node]val{}}
	switch lang {
	case "python":
		e.ln = pySpec{}
	case "js":
		e.ln = jsSpec{}
	case "ruby":
		e.ln = rbSpec{}
	case "php":
		e.ln = phpSpec{}
	}
	return e
}

// run walks the tree in source order, iteratively.
func (e *eval) run(root *node) {
	stack := []*node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !e.ln.visit(e, n) {
			continue
		}
		for i := len(n.kids) - 1; i >= 0; i-- {
			stack = append(stack, n.kids[i])
		}
	}
	e.facts.Socket = e.facts.Socket || e.socket
	if e.socket && e.dup2 && e.shellRun {
		e.facts.Dynamic = append(e.facts.Dynamic, Dynamic{Via: "socket shell", Sources: []string{"socket"}})
	}
}

// value evaluates an expression, bounded in depth.
func (e *eval) value(n *node) val {
	if n == nil {
		return val{}
	}
	if v, ok := e.memo[n]; ok {
		return v
	}
	e.work++
	if e.level > maxEval || e.work > maxWork {
		return unknown(n)
	}
	e.level++
	v, ok := e.ln.value(e, n)
	e.level--
	if !ok {
		v = unknown(n)
	}
	e.memo[n] = v
	return v
}

// literal string handling shared by the languages.
func (e *eval) strLit(s string) val {
	v := lit(s)
	if e.opt.Tainted && strings.ContainsAny(s, "$`") {
		v.static = false
	}
	return v
}

// home is the user's home directory as a value.
func (e *eval) home() val {
	if e.opt.Home == "" {
		return val{s: "$HOME"}
	}
	return lit(e.opt.Home)
}

// getenv is the value of an environment variable read by the code.
func (e *eval) getenv(name val) val {
	if !name.static {
		return flow(nil, name)
	}
	switch name.s {
	case "HOME", "USERPROFILE":
		return e.home()
	case "PWD":
		if e.opt.Cwd != "" {
			return lit(e.opt.Cwd)
		}
	case "TMPDIR":
		return lit("/tmp")
	}
	return val{s: "$" + name.s}
}

// expanduser replaces a leading ~ by the home directory.
func (e *eval) expanduser(v val) val {
	if !v.static {
		if strings.HasPrefix(v.s, "~") {
			return val{s: "$HOME" + v.s[1:]}
		}
		return v
	}
	if v.s == "~" || strings.HasPrefix(v.s, "~/") {
		return concat(e.home(), lit(v.s[1:]))
	}
	return v
}

// join is os.path.join / path.join / File.join: an absolute part restarts.
func join(parts []val, restart bool) val {
	if len(parts) == 0 {
		return val{}
	}
	out := parts[0]
	for _, p := range parts[1:] {
		switch {
		case restart && p.static && strings.HasPrefix(p.s, "/"):
			out = p
		case out.static && out.s != "" && !strings.HasSuffix(out.s, "/"):
			out = concat(concat(out, lit("/")), p)
		case !out.static && !strings.HasSuffix(out.s, "/"):
			out = concat(concat(out, lit("/")), p)
		default:
			out = concat(out, p)
		}
	}
	if out.static {
		out.s = cleanKeep(out.s)
	}
	return out
}

// cleanKeep cleans a path but keeps it relative when it was.
func cleanKeep(p string) string {
	if p == "" {
		return p
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// Recording facts.

func (e *eval) command(via string, shell bool, line val, argv []val) {
	c := Command{Via: via, Shell: shell}
	if shell {
		c.Line = line.str()
		if !c.Line.Static {
			c.Template = line.template()
		}
	} else {
		for _, a := range argv {
			c.Argv = append(c.Argv, a.str())
		}
		if len(c.Argv) == 0 {
			c.Argv = []Str{{Value: line.s}}
		}
	}
	e.facts.Commands = append(e.facts.Commands, c)
	e.shellRun = true
	if line.env || anyEnv(argv) {
		e.envDump(via)
	}
}

// runValue is a call that runs v: a shell line when it is a string, an
// argv when it is a list.
func (e *eval) runValue(via string, v val, shellForString bool) {
	if v.isList {
		e.command(via, false, val{}, v.list)
		return
	}
	if shellForString {
		e.command(via, true, v, nil)
		return
	}
	e.command(via, false, v, []val{v})
}

func anyEnv(vs []val) bool {
	for _, v := range vs {
		if v.env {
			return true
		}
	}
	return false
}

func (e *eval) del(via string, p val, recursive, dir bool) {
	// a path that ranges over a whole tree (os.walk's root) deletes it all
	e.facts.Deletes = append(e.facts.Deletes, Delete{Path: p.str(), Recursive: recursive || p.deep, Dir: dir, Via: via})
}

func (e *eval) read(via string, p val) {
	e.facts.Reads = append(e.facts.Reads, File{Path: p.str(), Via: via})
}

func (e *eval) write(via string, p val, appendMode bool) {
	e.facts.Writes = append(e.facts.Writes, File{Path: p.str(), Append: appendMode, Via: via})
}

func (e *eval) send(via string, to val, data ...val) {
	e.facts.Sends = append(e.facts.Sends, Send{To: to.str(), Via: via})
	if to.env || anyEnv(data) {
		e.envDump(via)
	}
}

func (e *eval) envDump(via string) {
	for _, x := range e.facts.EnvDump {
		if x == via {
			return
		}
	}
	e.facts.EnvDump = append(e.facts.EnvDump, via)
}

// dynamic is code built at run time and run (exec, eval). When the code is
// known (a literal, or a decoder applied to one) it is analysed too.
func (e *eval) dynamic(via string, code val, lang string) {
	if code.static && !code.isList {
		sub, err := analyze(code.s, lang, e.opt, e.depth+1)
		if err == nil {
			e.facts.merge(sub)
			e.shellRun = e.shellRun || len(sub.Commands) > 0
			if len(code.srcs) > 0 {
				e.facts.Dynamic = append(e.facts.Dynamic, Dynamic{Via: via, Sources: code.srcs, Decoded: true})
			}
			return
		}
	}
	e.facts.Dynamic = append(e.facts.Dynamic, Dynamic{Via: via, Sources: code.srcs})
}

// dynamicName is a call whose function is chosen at run time
// (getattr(os, name), obj[name]()).
func (e *eval) dynamicName(via string, name val) {
	e.facts.Dynamic = append(e.facts.Dynamic, Dynamic{Via: via, Sources: name.srcs})
}

// decoders.

func hexDecode(s string) (string, bool) {
	s = strings.ReplaceAll(s, " ", "")
	if len(s)%2 != 0 {
		return "", false
	}
	b := make([]byte, len(s)/2)
	for i := 0; i < len(b); i++ {
		hi, ok1 := hexVal(s[2*i])
		lo, ok2 := hexVal(s[2*i+1])
		if !ok1 || !ok2 {
			return "", false
		}
		b[i] = hi<<4 | lo
	}
	return string(b), true
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// decoded is the value of a decoder applied to v.
func decoded(v val, f func(string) (string, bool)) val {
	if !v.static {
		return flow(nil, v).withSrc("decode")
	}
	s, ok := f(v.s)
	if !ok {
		return val{s: v.s}
	}
	out := lit(s)
	out.srcs = v.srcs
	return out.withSrc("decode")
}

// unescape decodes the backslash escapes common to the languages' quoted
// strings (\n \t \xHH \uHHHH \0 and the quote itself).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case 'x':
			if i+2 < len(s) {
				if d, ok := hexDecode(s[i+1 : i+3]); ok {
					b.WriteString(d)
					i += 2
					continue
				}
			}
			b.WriteString(`\x`)
		case 'u':
			if i+4 < len(s) {
				if r, ok := hexRune(s[i+1 : i+5]); ok {
					b.WriteRune(r)
					i += 4
					continue
				}
			}
			b.WriteString(`\u`)
		case '\n':
			// a line continuation
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func hexRune(s string) (rune, bool) {
	var r rune
	for i := 0; i < len(s); i++ {
		d, ok := hexVal(s[i])
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// fromCodes builds a string from character codes (chr(114)+...,
// String.fromCharCode(...)).
func fromCodes(vs []val) val {
	var b strings.Builder
	for _, v := range vs {
		if !v.isNum || v.num < 0 || v.num > 0x10FFFF {
			return val{s: "chr(...)"}
		}
		b.WriteRune(rune(v.num))
	}
	return lit(b.String()).withSrc("decode")
}

// parseInt reads a decimal or 0x integer literal.
func parseInt(s string) (int, bool) {
	s = strings.ReplaceAll(s, "_", "")
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		base, s = 16, s[2:]
	}
	if s == "" || len(s) > 8 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		d, ok := hexVal(s[i])
		if !ok || int(d) >= base {
			return 0, false
		}
		n = n*base + int(d)
	}
	return n, true
}

func numVal(n *node) (val, bool) {
	i, ok := parseInt(n.text())
	if !ok {
		return unknown(n), true
	}
	return val{s: n.text(), static: true, num: i, isNum: true}, true
}

// strip removes a module prefix used by node ("node:fs") and sub-paths
// that export the same functions ("fs/promises").
func modName(s string) string {
	s = strings.TrimPrefix(s, "node:")
	switch s {
	case "fs/promises", "fs-extra", "graceful-fs":
		return "fs"
	case "child_process", "process", "os", "path", "http", "https", "net", "vm", "fs", "dgram", "tls":
		return s
	}
	return s
}

// argAt is the i-th positional argument, or an unknown one.
func argAt(pos []val, i int) val {
	if i >= 0 && i < len(pos) {
		return pos[i]
	}
	return val{s: "?"}
}

// joinVals joins a list's items with sep (”.join, [].join, implode).
func joinVals(list []val, sep val) val {
	out := lit("")
	for i, p := range list {
		if i > 0 {
			out = concat(out, sep)
		}
		out = concat(out, p)
	}
	return out
}

// list evaluates a list, tuple or array literal.
func (e *eval) list(n *node) val {
	out := val{isList: true, static: true, s: n.text()}
	for _, k := range n.namedKids() {
		v := e.value(k)
		out.list = append(out.list, v)
		out.env = out.env || v.env
		out.srcs = append(out.srcs, v.srcs...)
	}
	return out
}

// parts evaluates a string made of literal parts, escapes and
// interpolations (JS strings and templates, Ruby and PHP strings).
func (e *eval) parts(n *node) val {
	out := lit("")
	for _, k := range n.kids {
		switch k.kind {
		case "string_content", "string_fragment", "string_value":
			out = concat(out, e.strLit(k.text()))
		case "escape_sequence":
			out = concat(out, lit(unescape(k.text())))
		case "interpolation", "template_substitution", "complex_interpolation", "text_interpolation":
			if x := k.namedKids(); len(x) == 1 {
				out = concat(out, e.value(x[0]))
			} else {
				out = concat(out, unknown(k))
			}
		case "variable_name", "subscript_expression", "member_access_expression", "dynamic_variable_name":
			out = concat(out, e.value(k)) // PHP "$x" and "{$a['k']}"
		}
	}
	return out
}

// assign binds x = v, or x += v (x .= v) when cat is the operator, for a
// variable whose node kind is idKind. Other targets are not tracked.
func (e *eval) assign(n *node, idKind, cat string) {
	l, r := n.get("left"), n.get("right")
	if l == nil || r == nil || l.kind != idKind {
		return
	}
	if cat == "" {
		e.vars[l.text()] = e.value(r)
		return
	}
	if strings.Contains(n.src[l.end:r.start], cat) {
		e.vars[l.text()] = concat(e.vars[l.text()], e.value(r))
	}
}

// index is obj[idx] for a literal list or dict/object/hash.
func index(n *node, obj, idx val) val {
	if obj.isList && idx.isNum && idx.num < len(obj.list) {
		return obj.list[idx.num]
	}
	if obj.kw != nil && idx.static {
		if v, ok := obj.kw[idx.s]; ok {
			return v
		}
	}
	return flow(n, obj, idx)
}

// binary is l OP r where cat is the language's string concatenation.
func binary(n *node, l, r val, cat string) val {
	op := n.get("operator")
	if op == nil || op.text() != cat {
		return flow(n, l, r)
	}
	if l.isNum && r.isNum {
		return val{s: n.text(), static: true, num: l.num + r.num, isNum: true}
	}
	return concat(l, r)
}

// printfValue is sprintf(format, args...): each directive is its argument
// (%s, %d, %x, ... with flags and width), unknown where the argument is; the
// template keeps the known text, so "/bin/sh -i <&%d" still reads as a shell.
func printfValue(f string, args []val) val {
	var b, t strings.Builder
	static := true
	k := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			t.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			return val{s: f}
		}
		if f[j] == '%' {
			b.WriteByte('%')
			t.WriteByte('%')
			i = j
			continue
		}
		var a val
		if k < len(args) {
			a = args[k]
		}
		k++
		if a.static && !a.isList {
			b.WriteString(a.s)
			t.WriteString(a.s)
		} else {
			static = false
			t.WriteString(unknownPart)
		}
		i = j
	}
	if static {
		return lit(b.String())
	}
	return val{s: f, tmpl: t.String()}
}
