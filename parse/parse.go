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
func Parse(src string, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	if len(src) > opt.MaxBytes {
		return nil, &LimitError{Limit: "bytes", Max: opt.MaxBytes}
	}
	return walk(opt, func(w *walker) {
		f := w.parseSource(src, 0)
		sc := &scope{w: w, dir: opt.Cwd, origin: Origin{Kind: OriginTop}}
		w.stmts(sc, f.Stmts, pipePos{})
	})
}

// walk runs fn on a new walker and returns what it found; an abort is the
// error, and a panic an internal error.
func walk(opt Options, fn func(w *walker)) (res *Result, err error) {
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
	fn(w)
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
const reparseBudget = 2

// parseSource parses src as Bash. depth is the re-parse depth, for errors.
func (w *walker) parseSource(src string, depth int) *syntax.File {
	w.parsed += len(src)
	if w.parsed > reparseBudget*w.opt.MaxBytes {
		w.fail(&LimitError{Limit: "bytes", Max: w.opt.MaxBytes})
	}
	// The parser recurses once per nesting level and a Go stack overflow
	// cannot be recovered, so refuse deep nesting before parsing.
	nest, cmds := lexScan(src, lexicalFactor*w.opt.MaxDepth, lexicalFactor*w.opt.MaxExecs)
	if nest > lexicalFactor*w.opt.MaxDepth {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
	}
	if cmds > lexicalFactor*w.opt.MaxExecs {
		w.fail(&LimitError{Limit: "execs", Max: w.opt.MaxExecs})
	}
	if w.parser == nil {
		w.parser = syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))
	}
	f, err := w.parser.Parse(strings.NewReader(src), "")
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
// case patterns, || and && as two), so it only refuses well past MaxDepth
// and MaxExecs; the walk then enforces both exactly on the syntax tree.
const lexicalFactor = 4

// lexScan estimates, without parsing, how deeply src nests and how many
// commands it starts, so that input the parser would spend seconds (or,
// nested deep enough, a fatal stack overflow) on is refused first. It
// keeps a small stack of contexts: in code, ( { [ and " open, ) } ] close,
// if/while/until/for/case/select open and fi/done/esac close, and ; | &
// $( ` <( >( and newlines start commands; single quotes, backslash escapes and
// here-document bodies are skipped; in double quotes, $( and ${ open code
// and " closes. Over-counting is harmless: the limits it is held to are
// well above what the walk then enforces exactly.
//
// It stops as soon as either count passes its limit.
func lexScan(src string, depthLimit, cmdsLimit int) (maxDepth, cmds int) {
	var stack []bool // true: inside double quotes
	kw := 0          // keyword nesting
	var heredocs []string
	push := func(dq bool) {
		stack = append(stack, dq)
		maxDepth = max(maxDepth, len(stack)+kw)
	}
	wordStart := true
	// Operators nest too: unary and ternary chains in arithmetic ((( ))
	// and $[ ]), and runs of ! (! ! ! cmd, [[ ! ! a ]]). Each operator in
	// an arithmetic region, and each ! of a run, counts as one level.
	arith, ops, bangs := -1, 0, 0
	for i := 0; i < len(src) && maxDepth <= depthLimit && cmds <= cmdsLimit; i++ {
		c := src[i]
		inDq := len(stack) > 0 && stack[len(stack)-1]
		prevStart := wordStart
		wordStart = false
		if arith >= 0 && len(stack) < arith {
			arith, ops = -1, 0
		}
		if !inDq {
			switch {
			case arith >= 0 && strings.IndexByte("!~?:=+-*/%<>&|^,", c) >= 0:
				ops++
				maxDepth = max(maxDepth, len(stack)+kw+ops)
			case c == '!':
				bangs++
				maxDepth = max(maxDepth, len(stack)+kw+bangs)
			case c != ' ' && c != '\t':
				bangs = 0
			}
			if arith < 0 && (c == '(' && i+1 < len(src) && src[i+1] == '(' || c == '[' && i > 0 && src[i-1] == '$') {
				arith = len(stack) + 1 // the region ends when this bracket closes
			}
		}
		switch {
		case c == '\\':
			i++
		case inDq && c == '"':
			stack = stack[:len(stack)-1]
		case inDq && c == '$' && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == '{'):
			i++
			push(false)
			cmds++
		case inDq:
		case c == '\'':
			if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case c == '"':
			push(true)
		case c == '<' && strings.HasPrefix(src[i:], "<<") && !strings.HasPrefix(src[i:], "<<<"):
			d, n := heredocDelim(src[i+2:])
			heredocs = append(heredocs, d)
			i += 1 + n
		case c == '\n' && len(heredocs) > 0:
			next, bodyDepth := skipHeredocs(src, i+1, heredocs)
			maxDepth = max(maxDepth, len(stack)+kw+bodyDepth)
			i = next - 1
			heredocs = heredocs[:0]
			wordStart = true
		case c == '(' || c == '{' || c == '[':
			push(false)
			if c == '(' {
				cmds++
			}
			wordStart = true
		case c == ')' || c == '}' || c == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case c == ';' || c == '|' || c == '&' || c == '`':
			cmds++
			wordStart = true
		case c == '\n':
			cmds++
			wordStart = true
		case c == ' ' || c == '\t':
			wordStart = true
		case prevStart && c >= 'a' && c <= 'z':
			end := i
			for end < len(src) && src[end] >= 'a' && src[end] <= 'z' {
				end++
			}
			switch src[i:end] {
			case "if", "while", "until", "for", "case", "select":
				kw++
				maxDepth = max(maxDepth, len(stack)+kw)
			case "fi", "done", "esac":
				kw = max(kw-1, 0)
			}
			i = end - 1
		}
	}
	return maxDepth, cmds
}

// heredocDelim reads the delimiter after << or <<- and returns it
// unquoted, with the number of bytes read.
func heredocDelim(s string) (string, int) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	start := i
	for i < len(s) && !strings.ContainsRune(" \t\n;|&<>()", rune(s[i])) {
		i++
	}
	d := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(s[start:i])
	return d, i
}

// skipHeredocs skips the bodies of pending here-documents from i, each up
// to a line that is its delimiter (tabs allowed before it, for <<-). A
// body is text, so its separators do not count; but an unquoted body can
// nest substitutions, and a << that was not a here-document (a shift in
// arithmetic) would hide code, so brackets in bodies are still counted,
// without regard to quotes. It returns where the bodies end and their
// deepest bracket nesting.
func skipHeredocs(src string, i int, delims []string) (int, int) {
	depth, maxDepth := 0, 0
	for _, d := range delims {
		for i < len(src) {
			end := strings.IndexByte(src[i:], '\n')
			line := src[i:]
			if end >= 0 {
				line = src[i : i+end]
			}
			if end < 0 {
				i = len(src)
			} else {
				i += end + 1
			}
			if strings.TrimLeft(line, "\t") == d {
				break
			}
			for k := 0; k < len(line); k++ {
				switch line[k] {
				case '(', '{', '[':
					depth++
					maxDepth = max(maxDepth, depth)
				case ')', '}', ']':
					depth = max(depth-1, 0)
				}
			}
		}
	}
	return i, maxDepth
}
