package parse

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Parameter expansions that transform a known value, computed as the shell
// would (issue 12 class 8: obfuscation that is only "dynamic" to a reader
// who does not compute): indirection ${!x}, substitution ${x/a/b} (also
// //, /#, /%), prefix and suffix removal ${x#p} ${x##p} ${x%p} ${x%%p},
// case ${x^} ${x^^} ${x,} ${x,,}, substrings ${x:o} ${x:o:l}, and the
// transformations ${x@U} ${x@u} ${x@L} ${x@E}. Patterns may hold * and ?
// (bracket expressions stay unknown). What cannot be computed stays
// dynamic, as before.

// maxOpValue bounds the value an operation is applied to; maxGlobValue the
// value matched against a pattern holding * (matching is quadratic).
// Matching work is also budgeted for the whole Parse (patBudget steps,
// charged before a match as its worst case): past it, values are unknown.
const (
	maxOpValue   = 64 << 10
	maxGlobValue = 256
	maxGlobPat   = 64
	patBudget    = 4 << 20
)

// globCost charges the worst case of matching a pattern of m tokens at up
// to n² places of n runes; false when the budget is spent (or the sizes
// are over the caps).
func (w *walker) globCost(n, m int) bool {
	if n > maxGlobValue || m > maxGlobPat {
		return false
	}
	w.patWork += (n + 1) * (n + 1) * (n + m + 1)
	return w.patWork <= patBudget
}

// opParam resolves the expansions above. handled is false for any other
// form (the caller goes on with plain variables, defaults, arrays).
func (w *walker) opParam(sc *scope, p *syntax.ParamExp, dq bool) (v string, known, handled bool) {
	if p.Param == nil || p.Width || p.NestedParam != nil || len(p.Modifiers) > 0 || p.Names != 0 {
		return "", false, false
	}
	if p.Excl {
		if p.Index != nil || p.Length {
			return "", false, true // ${!a[@]}, ${!#}: keys, not modelled
		}
		name, ok := w.knownParam(sc, &syntax.ParamExp{Param: p.Param}, true)
		if !ok || !isName(name) && !isDigits(name) || volatile[name] {
			return "", false, true
		}
		q := *p
		q.Excl, q.Param = false, &syntax.Lit{Value: name}
		v, known = w.knownParam(sc, &q, dq)
		return v, known, true
	}
	transform := p.Slice != nil || p.Repl != nil || p.Exp != nil && p.Exp.Op >= syntax.RemSmallSuffix
	if !transform || p.Length {
		return "", false, false
	}
	if p.Index != nil {
		if wd, ok := p.Index.(*syntax.Word); !ok || wd.Lit() == "@" || wd.Lit() == "*" {
			return "", false, true // applied to each element: not modelled
		}
	}
	base := *p
	base.Slice, base.Repl, base.Exp = nil, nil, nil
	v, known = w.knownParam(sc, &base, true)
	if !known || len(v) > maxOpValue {
		return "", false, true
	}
	switch {
	case p.Slice != nil:
		v, known = substring(v, p.Slice)
	case p.Repl != nil:
		v, known = w.replace(sc, v, p.Repl)
	default:
		v, known = w.expansionOp(sc, v, p.Exp)
	}
	if known {
		w.expanded(len(v))
	}
	return v, known, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// substring is ${v:off} / ${v:off:len} with literal (possibly negative)
// integers, in characters.
func substring(v string, s *syntax.Slice) (string, bool) {
	rs := []rune(v)
	n := len(rs)
	off, ok := arithLit(s.Offset)
	if !ok {
		return "", false
	}
	if off < 0 {
		off += n
		if off < 0 {
			return "", true
		}
	}
	if off > n {
		return "", true
	}
	end := n
	if s.Length != nil {
		l, ok := arithLit(s.Length)
		if !ok {
			return "", false
		}
		if l < 0 {
			end = n + l
			if end < off {
				return "", false // bash: substring expression < 0
			}
		} else {
			end = min(n, off+l)
		}
	}
	return string(rs[off:end]), true
}

// arithLit is an arithmetic expression that is a literal integer, or its
// negation.
func arithLit(x syntax.ArithmExpr) (int, bool) {
	neg := false
	if u, ok := x.(*syntax.UnaryArithm); ok && (u.Op == syntax.Minus || u.Op == syntax.Plus) && !u.Post {
		neg, x = u.Op == syntax.Minus, u.X
	}
	wd, ok := x.(*syntax.Word)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(wd.Lit())
	if err != nil || n > maxOpValue {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// patTok is one element of a shell pattern: a literal rune, * or ?.
type patTok struct {
	star, any bool
	r         rune
}

// pattern reads a word as a shell pattern: unquoted * and ? are wildcards,
// quoted text and escaped characters literal; known variables are their
// value, literally. A bracket expression, a substitution or an unknown
// variable: false.
func (w *walker) pattern(sc *scope, wd *syntax.Word) ([]patTok, bool) {
	var out []patTok
	lit := func(s string) {
		for _, r := range s {
			out = append(out, patTok{r: r})
		}
	}
	if wd == nil {
		return nil, true
	}
	for _, part := range wd.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			s := part.Value
			for i := 0; i < len(s); i++ {
				switch c := s[i]; {
				case c == '\\' && i+1 < len(s):
					r, size := utf8.DecodeRuneInString(s[i+1:])
					out = append(out, patTok{r: r})
					i += size
				case c == '*':
					out = append(out, patTok{star: true})
				case c == '?':
					out = append(out, patTok{any: true})
				case c == '[':
					return nil, false
				default:
					r, size := utf8.DecodeRuneInString(s[i:])
					out = append(out, patTok{r: r})
					i += size - 1
				}
			}
		case *syntax.SglQuoted:
			if part.Dollar {
				lit(ansiC(part.Value))
			} else {
				lit(part.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range part.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					lit(unescapeDq(q.Value))
				case *syntax.ParamExp:
					v, ok := w.knownParam(sc, q, true)
					if !ok {
						return nil, false
					}
					lit(v)
				default:
					return nil, false
				}
			}
		case *syntax.ParamExp:
			v, ok := w.knownParam(sc, part, true)
			if !ok {
				return nil, false
			}
			lit(v) // its value as text (glob characters in it would match: rare)
		default:
			return nil, false
		}
	}
	return out, true
}

func literalPat(p []patTok) (string, bool) {
	var b strings.Builder
	for _, t := range p {
		if t.star || t.any {
			return "", false
		}
		b.WriteRune(t.r)
	}
	return b.String(), true
}

// match reports whether p matches all of s (iterative, backtracking to the
// last *: O(len(p)·len(s))).
func match(p []patTok, s []rune) bool {
	pi, si := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && !p[pi].star && (p[pi].any || p[pi].r == s[si]):
			pi++
			si++
		case pi < len(p) && p[pi].star:
			starP, starS = pi, si
			pi++
		case starP >= 0:
			pi = starP + 1
			starS++
			si = starS
		default:
			return false
		}
	}
	for pi < len(p) && p[pi].star {
		pi++
	}
	return pi == len(p)
}

// replace is ${v/pat/rep}, ${v//pat/rep}, ${v/#pat/rep}, ${v/%pat/rep}.
func (w *walker) replace(sc *scope, v string, r *syntax.Replace) (string, bool) {
	orig := r.Orig
	anchor := byte(0)
	if orig != nil && len(orig.Parts) > 0 {
		if l, ok := orig.Parts[0].(*syntax.Lit); ok && (strings.HasPrefix(l.Value, "#") || strings.HasPrefix(l.Value, "%")) {
			anchor = l.Value[0]
			rest := *orig
			rest.Parts = append([]syntax.WordPart{&syntax.Lit{Value: l.Value[1:]}}, orig.Parts[1:]...)
			orig = &rest
		}
	}
	pat, ok := w.pattern(sc, orig)
	if !ok {
		return "", false
	}
	with := ""
	if r.With != nil {
		rp, ok := w.pattern(sc, r.With)
		if !ok {
			return "", false
		}
		with, ok = literalPat(rp)
		if !ok {
			return "", false // an unquoted * in the replacement is literal, but rare: unknown
		}
	}
	if len(pat) == 0 {
		return v, true
	}
	if lit, ok := literalPat(pat); ok {
		switch {
		case anchor == '#':
			if strings.HasPrefix(v, lit) {
				return with + v[len(lit):], true
			}
			return v, true
		case anchor == '%':
			if strings.HasSuffix(v, lit) {
				return v[:len(v)-len(lit)] + with, true
			}
			return v, true
		case r.All:
			return strings.ReplaceAll(v, lit, with), true
		default:
			return strings.Replace(v, lit, with, 1), true
		}
	}
	rs := []rune(v)
	if !w.globCost(len(rs), len(pat)) {
		return "", false
	}
	n := len(rs)
	switch anchor {
	case '#':
		for j := n; j >= 0; j-- {
			if match(pat, rs[:j]) {
				return with + string(rs[j:]), true
			}
		}
		return v, true
	case '%':
		for i := 0; i <= n; i++ {
			if match(pat, rs[i:]) {
				return string(rs[:i]) + with, true
			}
		}
		return v, true
	}
	var b strings.Builder
	i := 0
	for i < n {
		end := -1
		for j := n; j > i; j-- {
			if match(pat, rs[i:j]) {
				end = j
				break
			}
		}
		if end < 0 {
			b.WriteRune(rs[i])
			i++
			continue
		}
		b.WriteString(with)
		i = end
		if !r.All {
			b.WriteString(string(rs[i:]))
			return b.String(), true
		}
	}
	return b.String(), true
}

// expansionOp is ${v#p} ${v##p} ${v%p} ${v%%p}, the case operators and @.
func (w *walker) expansionOp(sc *scope, v string, e *syntax.Expansion) (string, bool) {
	switch e.Op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		pat, ok := w.pattern(sc, e.Word)
		if !ok {
			return "", false
		}
		if lit, ok := literalPat(pat); ok {
			if e.Op == syntax.RemSmallPrefix || e.Op == syntax.RemLargePrefix {
				return strings.TrimPrefix(v, lit), true
			}
			return strings.TrimSuffix(v, lit), true
		}
		rs := []rune(v)
		if !w.globCost(len(rs), len(pat)) {
			return "", false
		}
		n := len(rs)
		switch e.Op {
		case syntax.RemSmallPrefix:
			for j := 0; j <= n; j++ {
				if match(pat, rs[:j]) {
					return string(rs[j:]), true
				}
			}
		case syntax.RemLargePrefix:
			for j := n; j >= 0; j-- {
				if match(pat, rs[:j]) {
					return string(rs[j:]), true
				}
			}
		case syntax.RemSmallSuffix:
			for i := n; i >= 0; i-- {
				if match(pat, rs[i:]) {
					return string(rs[:i]), true
				}
			}
		case syntax.RemLargeSuffix:
			for i := 0; i <= n; i++ {
				if match(pat, rs[i:]) {
					return string(rs[:i]), true
				}
			}
		}
		return v, true
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		if e.Word != nil && len(e.Word.Parts) > 0 {
			return "", false // ${v^^[a-m]}: a pattern of which characters
		}
		f := unicode.ToUpper
		if e.Op == syntax.LowerFirst || e.Op == syntax.LowerAll {
			f = unicode.ToLower
		}
		if e.Op == syntax.UpperAll || e.Op == syntax.LowerAll {
			return strings.Map(f, v), true
		}
		rs := []rune(v)
		if len(rs) > 0 {
			rs[0] = f(rs[0])
		}
		return string(rs), true
	case syntax.OtherParamOps:
		switch e.Word.Lit() {
		case "U":
			return strings.ToUpper(v), true
		case "L":
			return strings.ToLower(v), true
		case "u":
			rs := []rune(v)
			if len(rs) > 0 {
				rs[0] = unicode.ToUpper(rs[0])
			}
			return string(rs), true
		case "E":
			return ansiC(v), true
		}
	}
	return "", false
}
