package parse

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/sentinel-guard/sentinel/interp"
	"github.com/sentinel-guard/sentinel/programs"
)

// A socket shell is interpreter code that opens a raw socket and starts an
// interactive shell: whoever is at the other end types its commands. The
// wiring (dup2, stdin=s.fileno(), an inherited descriptor named in the
// shell line as <&3) takes many spellings; the two halves together are the
// behaviour, and code that needs both is not an everyday one-liner.

// interactiveShell reports whether words start a shell that reads its
// commands from its input: a shell with options and redirections only
// (sh, bash -i, /bin/sh -i <&3 >&3), no -c and no script operand.
func interactiveShell(words []string) bool {
	if len(words) == 0 {
		return false
	}
	p := programs.Lookup(path.Base(words[0]))
	if !p.Is(programs.Shell) {
		return false
	}
	for _, w := range words[1:] {
		switch {
		case strings.HasPrefix(w, "-") && strings.ContainsAny(w[1:], "c") && !strings.HasPrefix(w, "--"):
			return false // -c STRING
		case strings.HasPrefix(w, "-"), strings.ContainsAny(w, "<>&"):
			// an option or a redirection of a descriptor
		default:
			return false // a script operand
		}
	}
	return true
}

// commandWords is what a command of interpreter code starts, as words.
func commandWords(x interp.Command) []string {
	if x.Shell {
		line := x.Line.Value
		if !x.Line.Static {
			line = x.Template
		}
		return strings.Fields(line)
	}
	out := make([]string, len(x.Argv))
	for i, a := range x.Argv {
		out[i] = a.Value
	}
	return out
}

// socketShell reports a socket shell among facts read with a grammar.
func socketShell(f *interp.Facts) bool {
	if !f.Socket {
		return false
	}
	for _, d := range f.Dynamic {
		for _, s := range d.Sources {
			if s == "socket" {
				return false // already reported by the evaluator
			}
		}
	}
	for _, x := range f.Commands {
		if interactiveShell(commandWords(x)) {
			return true
		}
	}
	return false
}

// Perl has no grammar here: its socket calls and shell strings are found
// in the text.
var (
	perlSocketRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(socket\s*\(|IO::Socket|use\s+Socket\b|fsockopen)`)
	})
	perlExecRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(exec|system)\s*\(?\s*["']([^"']+)["']`)
	})
)

// perlSocketShell reports a socket shell in Perl source text.
func perlSocketShell(code string) bool {
	if !perlSocketRe().MatchString(code) {
		return false
	}
	for _, m := range perlExecRe().FindAllStringSubmatch(code, -1) {
		if interactiveShell(strings.Fields(m[2])) {
			return true
		}
	}
	return false
}

// Languages whose code is not read (programs.Scanned is false: Lua, R,
// Tcl, Julia, Java, Elixir, ...) are judged by the same two halves in the
// text: a socket opened to a peer, and a command run, in a loop or as an
// interactive shell; and code loaded from a URL and run (R's
// source("https://..."), Julia's include(download(...)), Lua's
// dofile/loadstring of a fetch).
var (
	anySocketRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bsocket\s*[(\[ ]|socketConnection\s*\(|gen_tcp\.connect|java\.net\.Socket|\bnew\s+Socket\s*\(|TCPSocket|Sockets\.connect|\bconnect\s*\(\s*~?c?["'][^"']+["']\s*,\s*\d+`)
	})
	anyExecRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("io\\.popen|os\\.execute|\\bsystem2?\\s*\\(|\\bexec\\s+(sh|bash|/bin/sh)\\b|ProcessBuilder|System\\.cmd|Runtime\\.getRuntime\\(\\)\\.exec|\\bpopen\\s*\\(|`(sh|bash) -c")
	})
	anyLoopRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(while|repeat|loop|for)\b|\bf\.\(f\)|["'](-i)["']|\bsh -i\b`)
	})
	urlLoadRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(source|include|dofile|loadstring|load|eval|require|import)\s*\(\s*(download\s*\(\s*|url\s*\(\s*|HTTP\.get\s*\(\s*)?["']https?://`)
	})
)

// unreadSocketShell reports a socket shell in the text of a language with
// no grammar here.
func unreadSocketShell(code string) bool {
	return anySocketRe().MatchString(code) && anyExecRe().MatchString(code) && anyLoopRe().MatchString(code)
}

// unreadURLLoad reports code that loads code from a URL and runs it.
func unreadURLLoad(code string) bool { return urlLoadRe().MatchString(code) }

// unreadCode reports what the text of a language with no grammar here
// shows however it is spelled: a socket shell, code loaded from a URL.
func (w *walker) unreadCode(c *cmd, code string, o Origin) {
	if unreadSocketShell(code) {
		w.synthetic(c, o, &DynamicCode{How: "interpreter", Sources: shellSources([]string{"socket"})}, Word{Value: "socket shell", Static: true})
	}
	if unreadURLLoad(code) {
		w.synthetic(c, o, &DynamicCode{How: "interpreter", Sources: shellSources([]string{"network"})}, Word{Value: "code loaded from a URL", Static: true})
	}
}
