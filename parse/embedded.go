package parse

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sentinel-guard/sentinel/programs"
)

// Embedded shell strings (issue 19, provenance). Code of a language no
// package here reads (R, Julia, Tcl, Lua, awk, sed and vim scripts, Emacs
// Lisp, gdb and CMake scripts) and the configuration files whose strings a
// runner hands to a shell (a Taskfile's cmds, tox's commands, a Procfile,
// meson's run_command, Gradle's execute(), a devcontainer's
// initializeCommand) run what they embed: EmbeddedShell finds those
// commands in the text without a grammar of the language. A candidate is
// a string literal ('..', "..", `..`, Nix's ''..'', Lua's [[..]], Python's
// triple quotes), literals joined by a concatenation operator, or the rest
// of a line from a word naming a program (`1e rm -rf x` of sed, `:!rm` of
// vim, `shell rm` of gdb, `- rm -rf x` of YAML); it is kept when it parses
// as the shell and its first word names a program of the model.
// Expressions for the home directory in the host language
// (ENVIRON["HOME"], $env(HOME), homedir(), {env:HOME}) read as ~. It is a
// reader of guesses, for text written in this session and then run: a
// candidate that does not parse is skipped, never an error.

const (
	// maxEmbedded bounds the candidates kept from one text.
	maxEmbedded = 128
	// maxEmbeddedLen bounds one candidate.
	maxEmbeddedLen = 4096
)

// homeMark stands for the home directory while the text is read.
const homeMark = "\x00"

var (
	embHome = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$\(\s*homedir\(\)\s*\)|\bhomedir\(\)|\$(?:::)?env\(HOME\)|\$ENV\{HOME\}|\bENVIRON\[\s*["']HOME["']\s*\]|\bENV\[\s*["']HOME["']\s*\]|\{env:HOME\}|\b(?:os\.|Sys\.|System\.)?(?:getenv|get_env|GetEnvironmentVariable)\(\s*["']HOME["']\s*\)|\bDir\.home\b|(?:require\(\s*['"](?:node:)?os['"]\s*\)|\bos)\.homedir\(\)|\bNSHomeDirectory\(\)|\b(?:os\.path\.)?expanduser\(\s*["']~["']\s*\)|\b(?:path\.expand|normalizePath)\(\s*["']~["']\s*\)|` +
			// the same root by the APIs of other languages: Common Lisp,
			// Emacs Lisp, Elixir, Ruby's Etc, the JVM, Go, Rust, Haskell,
			// Crystal, Nim, Swift, Perl's File::HomeDir
			`\(\s*user-homedir-pathname\s*\)|\(\s*(?:[\w-]+:{1,2})?getenv\s+"HOME"\s*\)|\(\s*expand-file-name\s+"~/?"\s*\)|\bSystem\.user_home!?(?:\(\))?|\bEtc\.getpwuid(?:\([^()]*\))?\.dir\b|\bSystem\.getProperty\(\s*["']user\.home["']\s*\)|\bos\.UserHomeDir\(\)|\b(?:std::env::|dirs::|home::)?home_dir\(\)|\bgetHomeDirectory\b|\bPath\.home\b(?:\(\))?|\bgetHomeDir\(\)|\bhomeDirectoryForCurrentUser(?:\.path)?|\bFile::HomeDir->my_home\b|\bDeno\.env\.get\(\s*["']HOME["']\s*\)|\bprocess\.env\.HOME\b|` +
			// Clojure's interop, Racket's system paths, babashka's fs
			`\(\s*System/getProperty\s+"user\.home"\s*\)|\(\s*find-system-path\s+(?:'|\(\s*quote\s+)home-dir\s*\)?\s*\)|\(\s*(?:babashka\.)?fs/home\s*\)`)
	})
	// an interpolation holding nothing but the home directory
	embHomeInterp = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:#\{|\$\{|\$\(|\{)\s*` + homeMark + `\s*[})]`)
	})
	// the home directory concatenated after a literal
	embHomeTail = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[ \t]*(?:\+\+|\+|\.\.|\.|&|\*|<>|~)?[ \t]*` + homeMark)
	})
	// what may stand between two literals that are one string
	embConcat = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:(?:\+\+|\+|\.\.|\.|&|\*|<>|~)?\s*` + homeMark + `\s*)?(?:\+\+|\+|\.\.|\.|&|\*|<>|~)?\s*$`)
	})
)

// literal is a string literal of the text and where it sits.
type literal struct {
	text       string
	start, end int // the span of the whole literal, quotes included
}

// EmbeddedShell is the shell text the commands embedded in text amount
// to, one a line ("" when there are none).
func EmbeddedShell(text string) string {
	t := embHome().ReplaceAllString(text, homeMark)
	t = embHomeInterp().ReplaceAllString(t, homeMark)
	var cands []string
	lits := literals(t)
	for i, l := range lits {
		cands = append(cands, l.text)
		// "rm -rf " ENVIRON["HOME"] "/x" (awk), 'rm -rf ' + os.homedir() + '/x'
		joined, k := l.text, i
		for k+1 < len(lits) {
			gap := t[lits[k].end:lits[k+1].start]
			if strings.Contains(gap, "\n") || !embConcat().MatchString(gap) {
				break
			}
			if strings.Contains(gap, homeMark) {
				joined += homeMark
			}
			joined += lits[k+1].text
			k++
		}
		// "rm -rf " ENVIRON["HOME"]: the home directory ends the string
		tail := embHomeTail().MatchString(t[lits[k].end:])
		if tail {
			joined += homeMark
		}
		if k > i || tail {
			cands = append(cands, joined)
		}
	}
	for _, line := range strings.Split(t, "\n") {
		cands = append(cands, lineCommands(line)...)
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		c = strings.TrimSpace(strings.ReplaceAll(c, homeMark, "~"))
		if c == "" || len(c) > maxEmbeddedLen || seen[c] || !commandLike(c) {
			continue
		}
		seen[c] = true
		out = append(out, c)
		if len(out) >= maxEmbedded {
			break
		}
	}
	return strings.Join(out, "\n")
}

// literals are the string literals of t, in order. A quote that opens no
// literal closed on its line (don't) is text; the long forms (triple
// quotes, backticks, Nix's two-quote strings, Lua's [[..]]) may span lines.
func literals(t string) []literal {
	var out []literal
	long := []struct{ open, close string }{{`"""`, `"""`}, {`'''`, `'''`}, {`''`, `''`}, {`[[`, `]]`}}
	for i := 0; i < len(t) && len(out) < 4*maxEmbedded; i++ {
		c := t[i]
		if c != '"' && c != '\'' && c != '`' && c != '[' {
			continue
		}
		matched := false
		for _, d := range long {
			if !strings.HasPrefix(t[i:], d.open) {
				continue
			}
			end := strings.Index(t[i+len(d.open):], d.close)
			if end < 0 {
				break
			}
			body := t[i+len(d.open) : i+len(d.open)+end]
			if d.open == `''` && body == "" {
				break // an empty '' literal, not Nix's ''..''
			}
			out = append(out, literal{text: body, start: i, end: i + len(d.open) + end + len(d.close)})
			i += len(d.open) + end + len(d.close) - 1
			matched = true
			break
		}
		if matched || c == '[' {
			continue
		}
		var b strings.Builder
		closed := false
		j := i + 1
		for ; j < len(t); j++ {
			x := t[j]
			if x == '\\' && j+1 < len(t) {
				j++
				switch t[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(t[j])
				}
				continue
			}
			if x == c {
				closed = true
				break
			}
			if x == '\n' && c != '`' {
				break
			}
			b.WriteByte(x)
		}
		if !closed {
			continue // not a literal: the quote is text
		}
		out = append(out, literal{text: b.String(), start: i, end: j + 1})
		i = j
	}
	return out
}

// lineCommands are the rests of a line from each word that names a
// program (at most three a line, within its first eight words).
func lineCommands(line string) []string {
	var out []string
	rest := line
	for k := 0; k < 8 && len(out) < 3; k++ {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			break
		}
		word := rest
		if n := strings.IndexAny(rest, " \t"); n >= 0 {
			word = rest[:n]
		}
		// :!rm, !rm (vim), @echo, - rm (YAML lists), $ rm (a prompt)
		w := strings.TrimLeft(word, "!@-$:>")
		if w != "" && plainWord(w) && programs.Lookup(baseName(w)) != nil {
			out = append(out, rest[len(word)-len(w):])
		}
		rest = rest[len(word):]
	}
	return out
}

// plainWord reports a word that could name a program: letters, digits and
// - _ . / +.
func plainWord(w string) bool {
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == '/', r == '+':
		default:
			return false
		}
	}
	return true
}

// commandLike reports a candidate that parses as the shell and whose
// first command names a program of the model.
func commandLike(c string) bool {
	if strings.Contains(c, "<<") {
		return false // a heredoc would swallow the lines after it
	}
	f := strings.Fields(c)
	if len(f) == 0 || !plainWord(f[0]) || programs.Lookup(baseName(f[0])) == nil {
		return false
	}
	_, err := syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(c), "")
	return err == nil
}
