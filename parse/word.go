package parse

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// arg is a word with what the walker needs beyond the contract's Word.
type arg struct {
	Word
	// srcs are the commands whose output is spliced into the word by a
	// command or process substitution.
	srcs []string
	// subst is true when the word contains a command or process substitution.
	subst bool
	// code is the output of the substitution the word consists of, when
	// known statically ("$(echo 'rm x')", <(printf 'rm x')); else nil.
	code *output
	// decoded names the decoders a computed value passed through
	// ($(echo cm0= | base64 -d)), comma-separated; "" if none (static.go).
	decoded string
	// pattern: the word is a glob the shell expands, or a name a fan-out
	// hands over (Value as programs.Listing writes it): a variable bound to
	// it holds one of its matches (globvar.go).
	pattern bool
}

type wordBuf struct {
	b      strings.Builder
	static bool
	srcs   []string
	subst  bool
	code   *output // output of the last substitution with static output
	// decoded: see arg.decoded; the fields of one word share it.
	decoded string
	// split is set for argv words: an unquoted expansion of a known value
	// is split into fields on blanks, as the shell does; fields holds the
	// fields completed, has whether the current one has any text or
	// quotes (an empty unquoted expansion yields no field at all).
	split   bool
	has     bool
	fields  []arg
	tooMany bool // more fields than maxSplitFields: the word is dynamic
}

// endField completes the current field.
func (wb *wordBuf) endField() {
	wb.fields = append(wb.fields, arg{Word: Word{Value: wb.b.String(), Static: wb.static}, srcs: wb.srcs, subst: wb.subst, decoded: wb.decoded})
	wb.b.Reset()
	wb.static, wb.has = true, false
}

// word evaluates a word: quote removal, escapes, $'...', ~ and
// $HOME/$PWD; substitutions in it are walked (they run).
func (w *walker) word(sc *scope, wd *syntax.Word) arg {
	var wb wordBuf
	wb.static = true
	if wd == nil {
		return arg{Word: Word{Static: true}}
	}
	for i, p := range wd.Parts {
		w.part(sc, p, &wb, i == 0, false)
	}
	a := arg{Word: Word{Value: wb.b.String(), Static: wb.static}, srcs: wb.srcs, subst: wb.subst, decoded: wb.decoded}
	if soleSubst(wd) {
		a.code = wb.code
	}
	return a
}

// fields evaluates a word in an argv position: like word, but unquoted
// expansions of known values split into several words, and one that
// expands to nothing yields none ($x with x= empty).
func (w *walker) fields(sc *scope, wd *syntax.Word) []arg {
	if wd == nil {
		return nil
	}
	if alts := braceWords(wd); alts != nil {
		// brace expansion comes first: each word it makes is a field
		var out []arg
		for _, a := range alts {
			out = append(out, w.unbracedFields(sc, a)...)
		}
		return out
	}
	return w.unbracedFields(sc, wd)
}

// unbracedFields is fields of a word without brace expansions.
func (w *walker) unbracedFields(sc *scope, wd *syntax.Word) []arg {
	if ps, ok := w.quotedAt(sc, wd); ok {
		return ps
	}
	var wb wordBuf
	wb.static, wb.split = true, true
	for i, p := range wd.Parts {
		w.part(sc, p, &wb, i == 0, false)
	}
	if wb.tooMany {
		return []arg{{Word: Word{Value: w.source(wd)}, srcs: wb.srcs, subst: wb.subst}}
	}
	if wb.has {
		wb.endField()
	}
	if len(wb.fields) == 1 && soleSubst(wd) {
		wb.fields[0].code = wb.code
	}
	return wb.fields
}

// quotedAt expands a word that is exactly "$@" with known positional
// parameters: one word per parameter, none when there are none.
func (w *walker) quotedAt(sc *scope, wd *syntax.Word) ([]arg, bool) {
	if len(wd.Parts) != 1 {
		return nil, false
	}
	dq, ok := wd.Parts[0].(*syntax.DblQuoted)
	if !ok || len(dq.Parts) != 1 {
		return nil, false
	}
	p, ok := dq.Parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Exp != nil || p.Length || p.Excl || p.Slice != nil || p.Repl != nil || len(p.Modifiers) > 0 || p.Names != 0 {
		return nil, false
	}
	if p.Index != nil { // "${a[@]}": one word per element
		wd, ok := p.Index.(*syntax.Word)
		elems := sc.lookupArray(p.Param.Value)
		if !ok || wd.Lit() != "@" || elems == nil {
			return nil, false
		}
		out := make([]arg, len(*elems))
		for i, v := range *elems {
			w.expanded(len(v))
			out[i] = arg{Word: Word{Value: v, Static: true}}
		}
		return out, true
	}
	if p.Param.Value != "@" || sc.params == nil {
		return nil, false
	}
	ps := (*sc.params)[min(1, len(*sc.params)):]
	w.expanded(len(joinArgs(ps)))
	out := make([]arg, len(ps))
	for i, a := range ps {
		out[i] = arg{Word: a.Word}
	}
	return out, true
}

// soleSubst reports a word that is one substitution and nothing else
// ($(...), "$(...)", <(...)): its value is exactly the output.
func soleSubst(wd *syntax.Word) bool {
	if len(wd.Parts) != 1 {
		return false
	}
	p := wd.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	switch p.(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst:
		return true
	}
	return false
}

func (w *walker) part(sc *scope, p syntax.WordPart, wb *wordBuf, first, dq bool) {
	switch p.(type) {
	case *syntax.ParamExp, *syntax.CmdSubst:
		// has is theirs to set: an unquoted one that expands to nothing
		// makes no field
	default:
		wb.has = true
	}
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if dq {
			wb.b.WriteString(unescapeDq(v))
			return
		}
		if first && strings.HasPrefix(v, "~") {
			v = w.tilde(sc, v, wb)
		}
		s, glob := unescapeUnquoted(v)
		if glob || hasBraceExp(s) {
			wb.static = false
		}
		wb.b.WriteString(s)
	case *syntax.SglQuoted:
		if p.Dollar {
			wb.b.WriteString(ansiC(p.Value))
		} else {
			wb.b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			w.part(sc, q, wb, false, true)
		}
	case *syntax.ParamExp:
		if v, ok := w.knownParam(sc, p, dq); ok {
			if p.Param != nil {
				wb.addDecoded(sc.lookupDecoded(p.Param.Value))
			}
			if (dq || !joinsParams(p) || sc.ifsHasSpace()) && w.writeKnown(sc, wb, v, dq) {
				return
			}
			// IFS is not known: how it splits is not known either.
		}
		wb.has = true
		wb.static = false
		if v, ok := sc.patternParam(p); ok {
			wb.b.WriteString(v) // "$f" of for f in DIR/*: one of its matches
			return
		}
		w.findSubsts(sc, p)
		if p.Param != nil {
			// X=$(curl ...); eval "$X": the code is curl's output.
			wb.srcs = append(wb.srcs, w.varSrcs[p.Param.Value]...)
		}
		wb.b.WriteString(w.source(p))
	case *syntax.CmdSubst:
		wb.subst = true
		names, out := w.cmdSubst(sc, p)
		wb.srcs, wb.code = append(wb.srcs, names...), out
		if w.writeSubst(sc, wb, out, dq) {
			return // its output is known: the word holds it (static.go)
		}
		wb.static, wb.has = false, true
		wb.b.WriteString(w.source(p))
	case *syntax.ProcSubst:
		wb.static, wb.subst = false, true
		names, out := w.procSubst(sc, p)
		wb.srcs, wb.code = append(wb.srcs, names...), out
		wb.b.WriteString(w.source(p))
	case *syntax.ArithmExp:
		wb.static = false
		w.findSubsts(sc, p)
		wb.b.WriteString(w.source(p))
	default: // ExtGlob, BraceExp, and anything newer
		wb.static = false
		w.findSubsts(sc, p)
		wb.b.WriteString(w.source(p))
	}
}

// knownParam resolves $HOME, $PWD and positional parameters (plain, no
// modifiers) when known: the latter inside bash -c '...' _ ARGS and
// functions called with static arguments.
func (w *walker) knownParam(sc *scope, p *syntax.ParamExp, dq bool) (string, bool) {
	if v, ok := w.takenDefault(sc, p); ok {
		return v, true
	}
	if v, known, handled := w.opParam(sc, p, dq); handled {
		return v, known // ${!x}, ${x/a/b}, ${x#p}, ${x^^}, ${x:1} (expand.go)
	}
	if v, ok := w.varParam(sc, p, dq); ok {
		return v, true
	}
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Exp != nil || p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	if n, err := strconv.Atoi(p.Param.Value); err == nil && sc.params != nil {
		if n >= len(*sc.params) {
			return "", true // unset: expands to nothing
		}
		a := (*sc.params)[n]
		// Unquoted in argv, the caller splits it (see writeSplit).
		return a.Value, a.Static
	}
	if sc.params != nil && (p.Param.Value == "@" || p.Param.Value == "*" || p.Param.Value == "#") {
		ps := (*sc.params)[min(1, len(*sc.params)):]
		if p.Param.Value == "#" {
			return itoa(len(ps)), true
		}
		if !allStatic(ps) {
			return "", false
		}
		if p.Param.Value == "*" && dq {
			sep, ok := sc.joinSep() // "$*" joins with IFS's first character
			if !ok {
				return "", false
			}
			vs := make([]string, len(ps))
			for i, a := range ps {
				vs[i] = a.Value
			}
			w.expanded(len(joinArgs(ps)))
			return strings.Join(vs, sep), true
		}
		w.expanded(len(joinArgs(ps)))
		return joinArgs(ps), true // $@ / $* to be split
	}
	switch p.Param.Value {
	case "HOME":
		return w.opt.Home, w.opt.Home != ""
	case "PWD":
		return sc.dir, sc.dir != ""
	case "IFS":
		// bash sets IFS at start-up (it is not taken from the
		// environment); an assignment was found by varParam above
		if _, set := findAssign(sc.assigns, "IFS"); !set {
			return defaultIFS, true
		}
	}
	return "", false
}

// tilde expands a leading ~ or ~/ (and ~+ to the current directory);
// ~user stays as written and makes the word dynamic.
func (w *walker) tilde(sc *scope, v string, wb *wordBuf) string {
	name, rest, _ := strings.Cut(v[1:], "/")
	if strings.Contains(v, "/") {
		rest = "/" + rest
	}
	var dir string
	switch name {
	case "":
		dir = w.opt.Home
	case "+":
		dir = sc.dir
	case "-":
		dir = sc.oldDir // $OLDPWD: where the last cd left
	}
	if dir == "" && userName(name) {
		// ~user is that user's home: where it is comes from the passwd
		// database, which is not read; the word stays dynamic with the
		// home root it names (/root, /home/USER) as its value, so rules
		// judge it as a home directory, not as a file named ~user here.
		wb.static = false
		if name == "root" {
			return "/root" + rest
		}
		return "/home/" + name + rest
	}
	if dir == "" {
		wb.static = false
		return v
	}
	return dir + rest
}

// userName reports a login name as useradd accepts it.
func userName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.' || c >= 'A' && c <= 'Z'):
		default:
			return false
		}
	}
	return true
}

// unescapeUnquoted removes backslashes from unquoted text and reports
// unescaped glob characters (the shell would expand them).
func unescapeUnquoted(s string) (string, bool) {
	if !strings.ContainsAny(s, `\*?[`) {
		return s, false
	}
	var b strings.Builder
	glob := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		case c == '*' || c == '?':
			glob = true
		case c == '[':
			// a bracket expression needs its closing "]": a lone "[" (the
			// test command, "a[") is a literal character
			glob = glob || strings.IndexByte(s[i+1:], ']') > 0
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// hasBraceExp reports text the shell would brace-expand ({a,b}, {1..3}).
func hasBraceExp(s string) bool {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return false
	}
	j := strings.IndexByte(s[i:], '}')
	if j < 0 {
		return false
	}
	in := s[i : i+j]
	return strings.Contains(in, ",") || strings.Contains(in, "..")
}

// unescapeDq removes the backslashes that double quotes remove.
func unescapeDq(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the body of a $'...' string.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if e == 'x' {
				b.WriteByte(byte(n))
			} else if r := rune(n); utf8.ValidRune(r) {
				b.WriteRune(r)
			}
			i = j - 1
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		default:
			if e >= '0' && e <= '7' {
				j := i
				for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				n, _ := strconv.ParseUint(s[i:j], 8, 16)
				b.WriteByte(byte(n))
				i = j - 1
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// words converts args for emitting.
func joinArgs(args []arg) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Value)
	}
	return b.String()
}

func allStatic(args []arg) bool {
	for _, a := range args {
		if !a.Static {
			return false
		}
	}
	return true
}

func argSrcs(args []arg) []string {
	var out []string
	for _, a := range args {
		out = append(out, a.srcs...)
	}
	return out
}
