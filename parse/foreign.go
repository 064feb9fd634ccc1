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
	// a call's opening: f( or (f, TeX's \write18{, and f "x" of the
	// languages that apply a function by juxtaposition (Haskell, Lua,
	// Crystal, Elixir, Ruby-likes: callCommand "rm -rf x")
	foreignCallRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([A-Za-z_][\w.:/!-]*)\s*[({]|\(\s*([A-Za-z_][\w.:/!-]*)[\s)]|([A-Za-z_][\w.:/!-]*)[ \t]+"`)
	})
	// Common Lisp's merge-pathnames: the relative part first, its default
	// (the home directory) after
	foreignMergeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`merge-pathnames\s*$`) })
	// a call joining path parts, just before the home directory: joinpath(~, "x")
	foreignJoinRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:(?:join|joinpath|path|concat)\s*\(|\(\s*(?:[\w.-]+/)?(?:build-path|path-join|join|file|path)\s+)\s*$`)
	})
)

// The lexicon of foreign code: what a call does, by the last part of its
// name, whatever the language (a new language needs no entry of its own).
var (
	// shell-out calls: a command line, or a program and its arguments
	foreignShellOuts = map[string]bool{
		"system": true, "exec": true, "execute": true, "cmd": true, "spawn": true, "popen": true, "shell": true,
		"run": true, "run-program": true, "run_program": true, "runprogram": true, "shell-command": true,
		"process": true, "execsync": true, "spawnsync": true, "execfile": true, "execfilesync": true,
		"call-process": true, "start-process": true, "make-process": true, "process-file": true, "command": true,
		"cmd!": true, "run!": true, "sh": true, "spawn_link": true, "open_port": true,
		"system2": true, "callcommand": true, "callprocess": true, "readprocess": true, "rawsystem": true,
		"spawncommand": true, "spawnprocess": true, "processbuilder": true, "shell-command-to-string": true,
		"call-process-shell-command": true, "syscmd": true, "esyscmd": true, "write18": true, "shell_exec": true,
		"passthru": true, "proc_open": true, "capture2": true, "capture3": true, "popen3": true,
	}
	// deletion calls; recursive when the name or a flag after the path says so
	foreignDeletes = map[string]bool{
		"delete-directory": true, "delete-file": true, "delete_file": true, "delete_dir": true, "deletefile": true,
		"deletedirectory": true, "delete_directory": true, "rmtree": true, "rm_rf": true, "rm_r": true, "rmrf": true,
		"rm-rf": true, "remove_dir_all": true, "removeall": true, "remove-all": true, "rmdir": true, "unlink": true,
		"delete-recursively": true, "remove_file": true, "removefile": true, "removedirectory": true,
		"remove-directory": true, "del_dir_r": true, "del_dir": true, "rm": true, "rm!": true, "rm_rf!": true,
		"delete-path": true, "delete-tree": true, "remove": true, "delete": true, "remove-file": true,
		"deleterecursively": true, "delete_recursively": true, "removedirectoryrecursive": true,
		"removepathforcibly": true, "deleteifexists": true, "remove_entry": true, "remove_tree": true,
		"deletetree": true, "removetree": true, "rm_f": true, "removeitem": true, "removeitematpath": true,
		"delete-directory/files": true, "delete-file-if-exists": true, "removedir": true,
	}
	// deletions of a whole tree whose name does not say so
	foreignTreeDeletes = map[string]bool{"removedir": true /* Nim's */, "remove_entry": true, "removeitem": true, "delete-directory/files": true, "removeitematpath": true}
	// calls that empty the file they name (a write of nothing)
	foreignTruncates = map[string]bool{"truncate": true, "truncatesync": true, "ftruncate": true, "truncate-file": true}
)

// foreignCode reads code of lang, a language no package reads.
func (w *walker) foreignCode(c *cmd, code, lang string, o Origin) {
	inner := *c
	inner.stdin, inner.runs = nil, nil
	if programs.ShellLike(lang) && w.reparseOK(&inner, code, o) {
		return // nu -c 'rm -r ~/x': read as the shell it resembles
	}
	// the home directory named by an API (homedir(), (user-homedir-pathname),
	// System.user_home()) is the home root wherever it stands
	t := embHome().ReplaceAllString(code, homeMark)
	for _, m := range foreignCallRe().FindAllStringSubmatchIndex(t, 64) {
		nameAt := 2
		for nameAt < len(m)-2 && m[nameAt] < 0 {
			nameAt += 2
		}
		name := strings.ToLower(t[m[nameAt]:m[nameAt+1]])
		if k := strings.LastIndexAny(name, ".:/"); k >= 0 && !foreignDeletes[name] {
			name = name[k+1:] // racket's delete-directory/files is one name
		}
		if argv := cmakeCall(name, t[m[1]:]); len(argv) > 0 && nameAt == 2 {
			for _, a := range argv {
				w.codeCall(&inner, "shell", []codeItem{{isList: true, static: true, list: a}}, "", o)
			}
			continue
		}
		shellOut, del, trunc := foreignShellOuts[name], foreignDeletes[name], foreignTruncates[name]
		if !shellOut && !del && !trunc {
			continue
		}
		var span string
		if nameAt == 6 {
			span = statementOf(callSpan(t[m[1]-1:])) // from the opening quote to the statement's end
		} else {
			span = callSpan(t[m[1]:])
		}
		lits := callLiterals(span, nameAt == 4)
		if len(lits) == 0 && shellOut && nameAt == 2 {
			// ["rm", "-rf", x].execute() (Groovy), Seq("rm", x).! (Scala):
			// the receiver is the command
			lits = receiverList(t[:m[nameAt]])
		}
		if len(lits) == 0 {
			// syscmd(rm -rf ~) of m4, \write18{rm -rf ~} of TeX: the
			// argument is the command line itself, unquoted
			if raw := strings.Trim(strings.TrimSpace(strings.ReplaceAll(span, homeMark, "~")), "`'\""); shellOut &&
				strings.ContainsAny(raw, " \t") && commandLike(raw) {
				w.reparse(&inner, raw, o, nil, false)
			}
			continue
		}
		first := strings.TrimSpace(lits[0].text)
		pathLike := strings.HasPrefix(first, "/") || strings.HasPrefix(first, "~") || strings.Contains(first, "/")
		switch {
		case trunc && pathLike:
			// truncate(P, 0): P emptied, as truncate -s 0 P empties it
			list := []codeItem{{val: "truncate", static: true}, {val: "-s", static: true}, {val: "0", static: true}, {val: first, static: true}}
			w.codeCall(&inner, "shell", []codeItem{{isList: true, static: true, list: list}}, "", o)
		case del && pathLike:
			kind := "rm"
			switch {
			case strings.Contains(name, "tree") || strings.Contains(name, "all") || strings.Contains(name, "rf") ||
				strings.Contains(name, "recursive") || strings.Contains(name, "forcibly") || strings.HasSuffix(name, "_r") ||
				foreignTreeDeletes[name] || foreignRecursive(span[lits[0].end:]):
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

// callLiterals are the string literals of a call's arguments, with the
// home directory (homeMark) outside a literal as one more, "~"; a
// literal joined to the one before it (home + "/x", joinpath(home, "x"))
// is one with it. In a Lisp form (lisp) words are apart: "a" "b" is two
// arguments, not one string.
func callLiterals(span string, lisp bool) []literal {
	lits := literals(span)
	if !strings.Contains(span, homeMark) {
		return lits
	}
	var out []literal
	k := 0
	for i := 0; i < len(span); {
		if k < len(lits) && lits[k].start <= i {
			out = append(out, lits[k])
			i = max(i+1, lits[k].end)
			k++
			continue
		}
		if span[i] == homeMark[0] {
			out = append(out, literal{text: homeMark, start: i, end: i + 1})
		}
		i++
	}
	out = append(out, lits[k:]...)
	merged := out[:0]
	joining := false // the last literal is home and the parts joined to it
	for _, l := range out {
		if n := len(merged); n > 0 {
			prev := &merged[n-1]
			gap := span[prev.end:l.start]
			if prev.text == homeMark && foreignJoinRe().MatchString(span[:prev.start]) {
				joining = true
			}
			switch {
			case l.text == homeMark && prev.text != homeMark && foreignMergeRe().MatchString(span[:prev.start]):
				// (merge-pathnames "x/" (user-homedir-pathname)): x below home
				prev.text = homeMark + "/" + strings.TrimLeft(prev.text, "/")
				prev.end = l.end
				continue
			case joining && (strings.TrimSpace(gap) == "," || lisp && strings.TrimSpace(gap) == ""):
				prev.text += "/" + strings.TrimLeft(l.text, "/")
				prev.end = l.end
				continue
			case !strings.Contains(gap, "\n") && embConcat().MatchString(gap) && !(lisp && strings.TrimSpace(gap) == ""):
				if strings.HasSuffix(prev.text, homeMark) && l.text != "" && l.text[0] != '/' {
					prev.text += "/" // getHomeDir() & "x" (Nim's ends with a slash): below home
				}
				prev.text += l.text
				prev.end = l.end
				continue
			}
		}
		joining = false
		merged = append(merged, l)
	}
	for i := range merged {
		merged[i].text = strings.ReplaceAll(merged[i].text, homeMark, "~")
	}
	return merged
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

// cmakeCall is what a CMake command whose verb is its first word runs, as
// argvs: file(REMOVE_RECURSE P...) is rm -rf P..., file(REMOVE P...) rm,
// execute_process(COMMAND prog args... [COMMAND ...]) each command (a
// keyword in capitals ends one). s is the text after the opening.
func cmakeCall(name, s string) [][]codeItem {
	if name != "file" && name != "execute_process" {
		return nil
	}
	var words []codeItem
	for _, f := range strings.Fields(strings.ReplaceAll(callSpan(s), homeMark, "~")) {
		words = append(words, codeItem{val: strings.Trim(f, `"`), static: !strings.Contains(f, "${")})
	}
	keyword := func(x string) bool {
		return len(x) > 2 && strings.ToUpper(x) == x && strings.Trim(x, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == ""
	}
	var out [][]codeItem
	switch {
	case name == "file" && len(words) > 1 && (words[0].val == "REMOVE_RECURSE" || words[0].val == "REMOVE"):
		rm := []codeItem{{val: "rm", static: true}}
		if words[0].val == "REMOVE_RECURSE" {
			rm = append(rm, codeItem{val: "-rf", static: true})
		}
		out = append(out, append(rm, words[1:]...))
	case name == "execute_process":
		var cur []codeItem
		for _, x := range words {
			switch {
			case x.val == "COMMAND":
				if len(cur) > 0 {
					out = append(out, cur)
				}
				cur = []codeItem{}
			case keyword(x.val):
				if len(cur) > 0 {
					out = append(out, cur)
				}
				cur = nil
			case cur != nil:
				cur = append(cur, x)
			}
		}
		if len(cur) > 0 {
			out = append(out, cur)
		}
	}
	return out
}

// homePath is an expression the text scan could not read as a literal:
// the home directory named by an API and joined to literals only
// (Deno.env.get("HOME")! + "/x", os.homedir() + "/x") is that path;
// anything else stays an expression known at run time.
func homePath(expr string) codeItem {
	// TypeScript's non-null assertion (Deno.env.get("HOME")!) changes nothing
	t := strings.ReplaceAll(embHome().ReplaceAllString(expr, homeMark), homeMark+"!", homeMark)
	if !strings.Contains(t, homeMark) {
		return codeItem{val: expr}
	}
	lits := callLiterals(t, false)
	if len(lits) != 1 || !strings.HasPrefix(lits[0].text, "~") {
		return codeItem{val: expr}
	}
	rest := t[:lits[0].start] + t[lits[0].end:]
	if strings.Trim(rest, " \t()!+") != "" {
		return codeItem{val: expr} // a name or call besides: not only the path
	}
	return codeItem{val: lits[0].text, static: true}
}

// receiverList is the literals of a list that ends just before a method
// call's dot: s is the text before the method's name.
func receiverList(s string) []literal {
	s = strings.TrimRight(s, " \t")
	if !strings.HasSuffix(s, ".") {
		return nil
	}
	s = strings.TrimRight(s[:len(s)-1], " \t")
	if !strings.HasSuffix(s, "]") && !strings.HasSuffix(s, ")") {
		return nil
	}
	depth := 0
	for i := len(s) - 1; i >= 0 && i >= len(s)-4096; i-- {
		switch s[i] {
		case ']', ')':
			depth++
		case '[', '(':
			if depth--; depth == 0 {
				return callLiterals(s[i+1:len(s)-1], false)
			}
		}
	}
	return nil
}

// statementOf cuts a juxtaposed call's arguments at the end of its
// statement: a newline or a semicolon outside a string.
func statementOf(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			if j := strings.IndexByte(s[i+1:], '"'); j >= 0 {
				i += j + 1
			}
		case '\n', ';':
			return s[:i]
		}
	}
	return s
}

// foreignRecursive: what follows a deletion's path asks for a recursive
// one ((delete-directory "x" t), rm(path, recursive = TRUE)).
func foreignRecursive(rest string) bool {
	r := strings.ToLower(rest)
	return strings.Contains(r, "recursive") || strings.Contains(r, "true") || strings.TrimSpace(r) == "t" ||
		strings.HasPrefix(strings.TrimSpace(r), "t ")
}
