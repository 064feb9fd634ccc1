// Package interp reads the code an interpreter is handed (python -c,
// node -e, ruby -e, php -r, a heredoc on stdin, a small script file) with a
// real parser for its language (tree-sitter) and reports what it would do,
// as the same kinds of facts the shell side has: commands it runs, paths it
// deletes, reads and writes, network sends, and code it builds at run time.
//
// Values are evaluated where they are static: string literals and their
// concatenation, the home directory (os.path.expanduser('~'), os.homedir(),
// Dir.home, getenv('HOME')), joins, decoders applied to literals
// (bytes.fromhex, base64), names built from pieces ('ex'+'ecSync',
// getattr(os, 'sys'+'tem')). What cannot be known is reported as not
// static, never guessed.
//
// The package only reads its input: it never executes, opens or sends
// anything. Grammars load on first use, so a process that never meets an
// interpreter pays nothing for them.
package interp

import (
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	php "github.com/tree-sitter/tree-sitter-php/bindings/go"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
	ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
)

// Str is a value computed from the code: a path, a URL, a command line.
type Str struct {
	Value string `json:"value"`
	// Static is true when Value is exactly what the code computes.
	// Otherwise Value is the source text of the expression.
	Static bool `json:"static"`
}

// Command is a program the code starts.
type Command struct {
	// Shell is set when Line is handed to a shell (os.system, execSync,
	// backticks); otherwise Argv is the program and its arguments.
	Shell bool `json:"shell,omitempty"`
	Line  Str  `json:"line,omitzero"`
	// Template is Line with each part known only at run time written
	// ${_interp} ("rm -rf ${_interp}/x") when Line is not static; exactly
	// "${_interp}" when nothing of it is known.
	Template string `json:"template,omitempty"`
	Argv     []Str  `json:"argv,omitempty"`
	Via      string `json:"via"` // the call, for explanations: "os.system"
}

// Delete is a path the code removes.
type Delete struct {
	Path      Str    `json:"path"`
	Recursive bool   `json:"recursive,omitempty"` // the whole tree (shutil.rmtree, rm_rf, {recursive:true})
	Dir       bool   `json:"dir,omitempty"`       // an empty directory (os.rmdir)
	Via       string `json:"via"`
}

// File is a path the code reads or writes.
type File struct {
	Path   Str    `json:"path"`
	Append bool   `json:"append,omitempty"`
	Via    string `json:"via"`
}

// Send is a network connection or request the code makes.
type Send struct {
	To  Str    `json:"to"` // URL or host
	Via string `json:"via"`
}

// Dynamic is code the program builds and runs at run time (exec, eval, a
// name built from pieces) or a shell tied to a socket.
type Dynamic struct {
	Via string `json:"via"`
	// Sources are the kinds of producers the code comes from: "decode"
	// (base64, hex, rot13, reversed or char-built strings), "network"
	// (downloaded), "socket" (a shell wired to a network socket), or
	// empty when unknown (a variable, an argument).
	Sources []string `json:"sources,omitempty"`
	// Decoded is set when the code could be computed anyway (a decoder
	// applied to a literal); its facts are merged into the result.
	Decoded bool `json:"decoded,omitempty"`
}

// Facts is what a piece of code would do.
type Facts struct {
	Commands []Command `json:"commands,omitempty"`
	Deletes  []Delete  `json:"deletes,omitempty"`
	Reads    []File    `json:"reads,omitempty"`
	Writes   []File    `json:"writes,omitempty"`
	Sends    []Send    `json:"sends,omitempty"`
	Dynamic  []Dynamic `json:"dynamic,omitempty"`
	// EnvDump lists the calls that hand the whole environment on (print,
	// a network send, a file): the environment holds tokens.
	EnvDump []string `json:"env_dump,omitempty"`
	// Socket is set when the code opens a raw network socket (not an HTTP
	// request): with a shell it starts on it, that is a socket shell even
	// where the wiring (dup2, stdin=fd, an inherited fd) is not followed.
	Socket bool `json:"socket,omitempty"`
}

func (f *Facts) merge(g *Facts) {
	f.Commands = append(f.Commands, g.Commands...)
	f.Deletes = append(f.Deletes, g.Deletes...)
	f.Reads = append(f.Reads, g.Reads...)
	f.Writes = append(f.Writes, g.Writes...)
	f.Sends = append(f.Sends, g.Sends...)
	f.Dynamic = append(f.Dynamic, g.Dynamic...)
	f.EnvDump = append(f.EnvDump, g.EnvDump...)
	f.Socket = f.Socket || g.Socket
}

// Options inform the evaluation.
type Options struct {
	Home string // the user's home directory, "" when unknown
	Cwd  string // the directory the code runs in, "" when unknown
	// Tainted says the code was itself built by shell expansion
	// (python -c "...$DIR..."): a "$" or backtick in a string literal
	// stood for an unknown value, so such literals are not static.
	Tainted bool
}

// Limits. Code over MaxBytes, a tree over maxNodes or a parse over
// parseBudget is not analysed (an error that Is ErrLimit, saying which):
// the caller must treat it as code it could not read, never fall back to
// a weaker reading and allow.
const (
	MaxBytes = 256 << 10
	maxNodes = 200_000
	maxEval  = 48       // nesting of expressions evaluated
	maxWork  = 200_000  // expressions evaluated in one analysis
	maxStr   = 64 << 10 // a computed string
	maxDepth = 4        // code decoded and analysed again (exec(bytes.fromhex(...)))
)

var (
	// ErrLimit reports code too large to analyse.
	ErrLimit = errors.New("interp: code over the analysis limit")
	// ErrSyntax reports code the grammar does not accept; the interpreter
	// would refuse it too, but the caller may still scan it as text.
	ErrSyntax = errors.New("interp: code does not parse")
	// ErrLang reports a language this package has no grammar for.
	ErrLang = errors.New("interp: no grammar for this language")
)

// Langs are the languages read with a grammar. Perl has none served here:
// callers keep their text scan for it.
var Langs = []string{"python", "js", "ruby", "php"}

// Supported reports whether lang is read with a grammar.
func Supported(lang string) bool {
	switch lang {
	case "python", "js", "ruby", "php":
		return true
	}
	return false
}

// Grammars are loaded on first use: the language objects are static C
// data, but looking them up and building a parser is only done when code
// appears.
var grammars = map[string]func() *grammar{
	"python": sync.OnceValue(func() *grammar { return newGrammar(python.Language()) }),
	"js":     sync.OnceValue(func() *grammar { return newGrammar(javascript.Language()) }),
	"ruby":   sync.OnceValue(func() *grammar { return newGrammar(ruby.Language()) }),
	"php":    sync.OnceValue(func() *grammar { return newGrammar(php.LanguagePHPOnly()) }),
}

// Analyze reports what code in lang would do. It never panics on any
// input; errors say the code was not analysed (ErrLang, ErrLimit,
// ErrSyntax), and then Facts is nil.
func Analyze(code, lang string, opt Options) (f *Facts, err error) {
	return analyze(code, lang, opt, 0)
}

func analyze(code, lang string, opt Options, depth int) (f *Facts, err error) {
	load, ok := grammars[lang]
	if !ok {
		return nil, ErrLang
	}
	if len(code) > MaxBytes {
		return nil, fmt.Errorf("%w: %d bytes, over %d KiB", ErrLimit, len(code), MaxBytes>>10)
	}
	if depth > maxDepth {
		return nil, fmt.Errorf("%w: code decoded more than %d times over", ErrLimit, maxDepth)
	}
	if !utf8.ValidString(code) {
		return nil, ErrSyntax
	}
	defer func() {
		if r := recover(); r != nil {
			switch r {
			case errTooBig:
				f, err = nil, fmt.Errorf("%w: over %d syntax nodes", ErrLimit, maxNodes)
				return
			case errLate:
				f, err = nil, fmt.Errorf("%w: its parse took over %s", ErrLimit, parseBudget)
				return
			}
			panic(r)
		}
	}()
	g := load()
	if g == nil {
		return nil, ErrLang // a grammar this runtime cannot load
	}
	root, ok := g.parse(code)
	if !ok {
		return nil, ErrSyntax
	}
	e := newEval(lang, code, opt, depth)
	e.run(root)
	return &e.facts, nil
}

var (
	errTooBig = errors.New("too many nodes")
	errLate   = errors.New("parse over its budget")
)

// node is one syntax node, copied out of tree-sitter.
type node struct {
	kind       string
	field      string // the field name in its parent, "" when none
	start, end int
	named      bool
	kids       []*node
	src        string
}

func (n *node) text() string { return n.src[n.start:n.end] }

// get returns the first child in field f.
func (n *node) get(f string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.field == f {
			return k
		}
	}
	return nil
}

// named lists the named children.
func (n *node) namedKids() []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, k := range n.kids {
		if k.named && k.kind != "comment" {
			out = append(out, k)
		}
	}
	return out
}

// first returns the first named child of one of kinds.
func (n *node) first(kinds ...string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		for _, want := range kinds {
			if k.kind == want {
				return k
			}
		}
	}
	return nil
}
