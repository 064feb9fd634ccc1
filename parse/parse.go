package parse

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parse reads shell source (Bash) and returns every execution it would
// perform. It never panics on any input: an input over a limit returns a
// *LimitError, source that does not parse a *SyntaxError, and anything
// unexpected an error. Callers must treat any error as "could not judge".
func Parse(src string, opt Options) (res *Result, err error) {
	opt = opt.withDefaults()
	if len(src) > opt.MaxBytes {
		return nil, &LimitError{Limit: "bytes", Max: opt.MaxBytes}
	}
	w := newWalker(opt)
	defer func() {
		if r := recover(); r != nil {
			res = nil
			if a, ok := r.(abort); ok {
				err = a.err
				return
			}
			// Last resort: a bug must not crash the hook nor pass the call.
			err = fmt.Errorf("parse: internal error: %v", r)
		}
	}()
	f := w.parseSource(src, 0)
	sc := &scope{dir: opt.Cwd, origin: Origin{Kind: OriginTop}}
	w.stmts(sc, f.Stmts, pipePos{})
	return w.result(), nil
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxExecs <= 0 {
		o.MaxExecs = DefaultMaxExecs
	}
	return o
}

// abort unwinds the walk with an error; Parse recovers it.
type abort struct{ err error }

func (w *walker) fail(err error) { panic(abort{err}) }

// reparseBudget bounds the total source parsed, re-parsed strings
// included, as a multiple of MaxBytes: alias bodies and shell strings can
// be expanded many times.
const reparseBudget = 4

// parseSource parses src as Bash. depth is the re-parse depth, for errors.
func (w *walker) parseSource(src string, depth int) *syntax.File {
	w.parsed += len(src)
	if w.parsed > reparseBudget*w.opt.MaxBytes {
		w.fail(&LimitError{Limit: "bytes", Max: w.opt.MaxBytes})
	}
	// The parser recurses once per nesting level and a Go stack overflow
	// cannot be recovered, so refuse deep nesting before parsing.
	if lexicalDepth(src) > lexicalFactor*w.opt.MaxDepth {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
	}
	p := syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))
	f, err := p.Parse(strings.NewReader(src), "")
	if err != nil {
		w.fail(syntaxError(err, depth))
	}
	return f
}

func syntaxError(err error, depth int) *SyntaxError {
	msg := err.Error()
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		msg = pe.Pos.String() + ": " + pe.Text
	}
	if depth > 0 {
		msg = fmt.Sprintf("in code re-parsed at depth %d: %s", depth, msg)
	}
	return &SyntaxError{Msg: msg}
}

// lexicalFactor: the lexical scan over-counts (brackets in double quotes,
// case patterns), so it only refuses nesting well past MaxDepth; the walk
// then enforces MaxDepth exactly on the syntax tree.
const lexicalFactor = 4

// lexicalDepth estimates the nesting of src without parsing it, with a
// small stack of contexts: in code, ( { [ and " open, ) } ] close, single
// quotes and backslash escapes are skipped; in double quotes, $( and ${
// open code and " closes. It is used only to keep the parser's recursion
// bounded, so over-counting is harmless.
func lexicalDepth(src string) int {
	var stack []bool // true: inside double quotes
	maxDepth := 0
	push := func(dq bool) {
		stack = append(stack, dq)
		if len(stack) > maxDepth {
			maxDepth = len(stack)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		inDq := len(stack) > 0 && stack[len(stack)-1]
		switch {
		case c == '\\':
			i++
		case inDq && c == '"':
			stack = stack[:len(stack)-1]
		case inDq && c == '$' && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == '{'):
			i++
			push(false)
		case inDq:
		case c == '\'':
			if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case c == '"':
			push(true)
		case c == '(' || c == '{' || c == '[':
			push(false)
		case c == ')' || c == '}' || c == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return maxDepth
}
