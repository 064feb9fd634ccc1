package parse

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sentinel-guard/sentinel/programs"
)

// Code of a language no package here reads (issue 19: unknown programs
// are judged by their operands): Julia, Elixir, Erlang, the Lisps, Groovy,
// Scala, Octave, gnuplot, dc, ed's and gdb's, lldb's and vim's commands,
// Emacs Lisp, and a shell-like shell's code that is not shell (xonsh's
// python). What such code hands to the operating system is read without
// its grammar: the shell commands it embeds (EmbeddedShell: string
// literals, backtick spans and the rest of a line from a word naming a
// program), the argv of a shell-out call whose arguments are literals
// (System.cmd("rm", ["-rf", P]), (run-program "rm" '("-rf" "x"))), and a
// deletion call of a literal path ((delete-directory "~/x" t),
// rm_rf("x")). A shell-like shell's code (nu, xonsh, elvish, rc) is read
// as shell first, where it parses as shell.

var (
	// a call's opening: f( or (f
	foreignCallRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([A-Za-z_][\w.:/!-]*)\s*\(|\(\s*([A-Za-z_][\w.:/!-]*)[\s)]`)
	})
)

// shell-out calls of any language, by the last part of their name
var foreignShellOuts = map[string]bool{
	"system": true, "exec": true, "execute": true, "cmd": true, "spawn": true, "popen": true, "shell": true,
	"run": true, "run-program": true, "run_program": true, "runprogram": true, "shell-command": true,
	"process": true, "execsync": true, "spawnsync": true, "execfile": true, "execfilesync": true,
	"call-process": true, "start-process": true, "make-process": true, "process-file": true, "command": true,
	"cmd!": true, "run!": true, "sh": true, "spawn_link": true, "open_port": true,
}

// deletion calls; recursive when the name or a flag after the path says so
var foreignDeletes = map[string]bool{
	"delete-directory": true, "delete-file": true, "delete_file": true, "delete_dir": true, "deletefile": true,
	"deletedirectory": true, "delete_directory": true, "rmtree": true, "rm_rf": true, "rm_r": true, "rmrf": true,
	"rm-rf": true, "remove_dir_all": true, "removeall": true, "remove-all": true, "rmdir": true, "unlink": true,
	"delete-recursively": true, "remove_file": true, "removefile": true, "removedirectory": true,
	"remove-directory": true, "del_dir_r": true, "del_dir": true, "rm": true, "rm!": true, "rm_rf!": true,
	"delete-path": true, "delete-tree": true,
}

// foreignCode reads code of lang, a language no package reads.
func (w *walker) foreignCode(c *cmd, code, lang string, o Origin) {
	inner := *c
	inner.stdin, inner.runs = nil, nil
	if programs.ShellLike(lang) && w.reparseOK(&inner, code, o) {
		return // nu -c 'rm -r ~/x': read as the shell it resembles
	}
	for _, m := range foreignCallRe().FindAllStringSubmatchIndex(code, 64) {
		nameAt := 2
		if m[2] < 0 {
			nameAt = 4
		}
		name := strings.ToLower(code[m[nameAt]:m[nameAt+1]])
		if k := strings.LastIndexAny(name, ".:/"); k >= 0 {
			name = name[k+1:]
		}
		shellOut, del := foreignShellOuts[name], foreignDeletes[name]
		if !shellOut && !del {
			continue
		}
		span := callSpan(code[m[1]:])
		lits := literals(span)
		if len(lits) == 0 {
			continue
		}
		first := strings.TrimSpace(lits[0].text)
		switch {
		case del && (strings.HasPrefix(first, "/") || strings.HasPrefix(first, "~") || strings.Contains(first, "/")):
			kind := "rm"
			switch {
			case strings.Contains(name, "tree") || strings.Contains(name, "all") || strings.Contains(name, "rf") ||
				strings.Contains(name, "recursive") || strings.HasSuffix(name, "_r") || foreignRecursive(span[lits[0].end:]):
				kind = "rm -r"
			case strings.Contains(name, "dir"):
				kind = "rmdir" // an empty directory only
			}
			w.codeCall(&inner, kind, []codeItem{{val: first, static: true}}, "", o)
		case shellOut && len(lits) > 1 && plainWord(first) && programs.Lookup(baseName(first)) != nil:
			// System.cmd("rm", ["-rf", Path.expand("~/x")]): the literals are its argv
			list := make([]codeItem, 0, len(lits))
			for _, l := range lits {
				list = append(list, codeItem{val: l.text, static: true})
			}
			w.codeCall(&inner, "shell", []codeItem{{isList: true, static: true, list: list}}, "", o)
		}
	}
	if src := EmbeddedShell(code); src != "" {
		w.reparse(&inner, src, o, nil, false)
	}
}

// callSpan is the text of a call's arguments: up to the parenthesis that
// closes it (strings skipped), bounded.
func callSpan(s string) string {
	depth := 0
	for i := 0; i < len(s) && i < 4096; i++ {
		switch s[i] {
		case '"', '`':
			if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
				i += j + 1
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return s[:i]
			}
			depth--
		}
	}
	return s[:min(len(s), 4096)]
}

// foreignRecursive: what follows a deletion's path asks for a recursive
// one ((delete-directory "x" t), rm(path, recursive = TRUE)).
func foreignRecursive(rest string) bool {
	r := strings.ToLower(rest)
	return strings.Contains(r, "recursive") || strings.Contains(r, "true") || strings.TrimSpace(r) == "t" ||
		strings.HasPrefix(strings.TrimSpace(r), "t ")
}
