package parse

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sentinel-guard/sentinel/interp"
	"github.com/sentinel-guard/sentinel/programs"
)

// interpreter finds the code an interpreter runs: a one-liner (python -c,
// node -e, perl -e, ruby -e, php -r, deno eval), a script file, or stdin.
func (w *walker) interpreter(sc *scope, c *cmd, name, lang string) {
	if checksOnly(c, name) {
		w.emit(c) // node -c x.js, python3 -m py_compile x.py: read, not run
		return
	}
	if programs.Canon(name) == "bun" {
		defer w.npmScripts(c, name) // bun run build: package.json's build script (as plain's npm)
	}
	code, flag, found, script := interpCode(c.argv[1:], programs.Lookup(name))
	switch {
	case found && code != nil && code.Static:
		markDecoded(c, "interpreter", code.decoded)
		w.emit(c)
		o := Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: name + " " + flag}
		inner := *c
		inner.stdin = nil
		if strings.HasPrefix(name, "ipython") {
			// IPython runs !lines and %%bash cells as shell, the rest as python
			w.reparse(&inner, programs.CellShell(code.Value), o, nil, false)
			return
		}
		w.scanCode(&inner, code.Value, lang, o)
	case found:
		var srcs []string
		if code != nil {
			srcs = code.srcs
		}
		c.runs = &DynamicCode{How: "interpreter", Sources: srcs}
		w.emit(c)
		if code != nil && !code.subst {
			// python3 -c "shutil.rmtree('$DIR')": the code is not fully
			// known, but its calls still are; strings holding a shell
			// expansion are unknown words.
			o := Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: name + " " + flag}
			inner := *c
			inner.stdin, inner.runs = nil, nil
			w.taint = true
			w.scanCode(&inner, code.Value, lang, o)
			w.taint = false
		}
	case script:
		a, ok := firstOperand(c.argv[1:], programs.Lookup(name).Opts.Short)
		if !ok || !w.runWritten(c, []arg{a}, lang) {
			w.emit(c)
		}
		if ok && a.Static && codeLikeOperand(a.Value) {
			// ruby -Ke 'system(...)': -K took the e, so the code is the
			// script's name; an option read one way by the model and
			// another by some version of the interpreter must not hide
			// code, and no file is named like this: it is read as code too
			// (what it finds, if anything, is judged)
			inner := *c
			inner.stdin = nil
			w.scanCode(&inner, a.Value, lang, Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: name + " operand"})
		}
	default:
		w.stdinCode(c, name, lang)
	}
}

// codeLikeOperand reports a script operand that reads as code, not as a
// file's name: it holds a quote, a backtick, a newline, a semicolon, or a
// call's parentheses.
func codeLikeOperand(v string) bool {
	if strings.ContainsAny(v, "\"'`\n;") {
		return true
	}
	i := strings.IndexByte(v, '(')
	return i > 0 && strings.IndexByte(v[i:], ')') > 0
}

// checksOnly reports that c only checks its code's syntax, by the program
// model (programs.ChecksOnly): the file or stdin is read, nothing runs. A
// word known only at run time ends the options looked at.
func checksOnly(c *cmd, name string) bool {
	args := make([]string, 0, len(c.argv)-1)
	for _, a := range c.argv[1:] {
		if !a.Static {
			break
		}
		args = append(args, a.Value)
	}
	return programs.Lookup(name).ChecksOnly(args)
}

// interpCode finds the code argument. script is true when the interpreter
// runs a file or module rather than stdin.
func interpCode(args []arg, p *programs.Program) (code *arg, flag string, found, script bool) {
	if p == nil {
		return nil, "", false, false
	}
	lang := p.Lang
	var parts []arg
	var codeFlag string
	take := func(a arg, f string) {
		parts = append(parts, a)
		codeFlag = f
	}
	if (lang == "js" || p.EvalVerb != "") && len(args) > 0 && args[0].Static && args[0].Value == cmp.Or(p.EvalVerb, "eval") {
		j := 1
		for j < len(args) && args[j].Static && len(args[j].Value) > 1 && args[j].Value[0] == '-' && args[j].Value != "--" {
			// deno eval --ext=ts -p CODE: the options before the code
			if v := args[j].Value; strings.HasPrefix(v, "--") && !strings.Contains(v, "=") && p.Opts.TakesLong(v[2:]) {
				j++
			}
			j++
		}
		if j < len(args) && args[j].Static && args[j].Value == "--" {
			j++
		}
		if j < len(args) {
			return &args[j], "eval", true, false
		}
		return nil, "eval", true, false
	}
	if p.RunVerb != "" && len(args) > 0 && args[0].Static && args[0].Value == p.RunVerb {
		args = args[1:] // deno run -A -: the script, or stdin, follows
	}
	// The program model's grammar: the options whose value is code, those
	// that take a value, those whose value is attached (perl -i.bak, -Mmod).
	codeShort, withArg, attached, digits := p.Inline, p.Opts.Short, p.Attached, p.AttachedDigits
	i := 0
loop:
	for i < len(args) {
		a := args[i]
		v := a.Value
		if !a.Static || len(v) < 2 || v[0] != '-' {
			break
		}
		if v == "--" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v[2:], "=")
			switch {
			case slices.Contains(p.InlineLong, name):
				if hasVal {
					take(arg{Word: Word{Value: val, Static: true}}, "--"+name)
				} else if i+1 < len(args) {
					take(args[i+1], "--"+name)
					i++
				}
			case !hasVal && p.Opts.TakesLong(name):
				i++
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			ch := v[j : j+1]
			switch {
			case strings.Contains(codeShort, ch):
				if j+1 < len(v) && lang != "js" { // node -pe CODE: the code is the next word
					take(arg{Word: Word{Value: v[j+1:], Static: a.Static}}, "-"+ch)
				} else if lang == "js" && i+1 < len(args) && args[i+1].Static && len(args[i+1].Value) > 1 && args[i+1].Value[0] == '-' {
					// node -p -e CODE: -p prints what the -e code gives.
					i++
					continue loop
				} else if i+1 < len(args) {
					take(args[i+1], "-"+ch)
					i++
				} else {
					return nil, "-" + ch, true, false
				}
				i++
				if lang == "python" {
					break loop // the rest are arguments of the code
				}
				continue loop
			case ch == p.Module:
				return nil, "", false, true
			case strings.Contains(digits, ch):
				j += p.DigitsAfter(v[j+1:]) // perl -l0e CODE: the cluster goes on
			case strings.Contains(withArg, ch):
				if j+1 == len(v) {
					i++
				}
				i++
				continue loop
			case strings.Contains(attached, ch):
				i++
				continue loop
			}
		}
		i++
	}
	if len(parts) > 0 {
		// perl -e and ruby -e may repeat: the lines are joined.
		joined := parts[0]
		for _, p := range parts[1:] {
			joined.Value += "\n" + p.Value
			joined.Static = joined.Static && p.Static
			joined.srcs = append(joined.srcs, p.srcs...)
		}
		return &joined, codeFlag, true, false
	}
	if i < len(args) && !(args[i].Static && programs.StdinPath(args[i].Value)) {
		return nil, "", false, true
	}
	return nil, "", false, false
}

// A call pattern: the regexp matches up to the opening of the arguments.
type callPat struct {
	re    *regexp.Regexp
	kind  string   // "shell": runs a command line or argv; "rm", "rm -r", "rmdir": deletes its first argument
	hints []string // names in the pattern: a cheap filter before the regexp
}

func pats(kind string, exprs ...string) []callPat {
	var out []callPat
	for _, e := range exprs {
		out = append(out, callPat{re: regexp.MustCompile(e), kind: kind, hints: hintWords(e)})
	}
	return out
}

var (
	escapeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\.`) })
	nameRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z_0-9]+`) })
)

// hintWords lists the names written in a pattern (escapes removed). Every
// match contains one of them, since each pattern requires a group of
// literal names; code with none of them cannot match and is not searched.
func hintWords(expr string) []string {
	return nameRe().FindAllString(escapeRe().ReplaceAllString(expr, " "), -1)
}

func (p callPat) mayMatch(code string) bool {
	for _, h := range p.hints {
		if strings.Contains(code, h) {
			return true
		}
	}
	return false
}

// Per-language patterns. Perl and Ruby call without parentheses too.
var langPats = sync.OnceValue(func() map[string][]callPat {
	return map[string][]callPat{
		"python": concat(
			pats("shell", `\bos\.(?:system|popen)\s*\(`, `\bsubprocess\.(?:run|call|Popen|check_output|check_call|getoutput|getstatusoutput)\s*\(`,
				`(?:^|[^.\w])(?:system|popen|check_output|check_call|getoutput|getstatusoutput|Popen)\s*\(`),
			// import subprocess as sp; sp.run([...]): any .run/.call/... with a
			// literal list as first argument.
			pats("argv", `\.(?:run|call|Popen|check_output|check_call)\s*\(`),
			pats("rm -r", `\b(?:shutil\.)?rmtree\s*\(`),
			pats("rm", `\bos\.(?:remove|unlink)\s*\(`),
			pats("rmdir", `\bos\.(?:rmdir|removedirs)\s*\(`),
		),
		"js": concat(
			pats("shell", `\b(?:execSync|exec|spawnSync|spawn|execFileSync|execFile)\s*\(`),
			pats("rm?", `\b(?:fs\w*|promises)\.(?:rmSync|rm|rmdirSync|rmdir)\s*\(`, `\.(?:rmSync|rmdirSync)\s*\(`, `\bDeno\.remove(?:Sync)?\s*\(`),
			pats("rm", `\b(?:fs\w*|promises)\.(?:unlinkSync|unlink)\s*\(`, `\.unlinkSync\s*\(`),
		),
		"perl": concat(
			pats("shell", `\b(?:system|exec)\b\s*\(?`),
			pats("rm -r", `\b(?:rmtree|remove_tree)\b\s*\(?`),
			pats("rm", `\bunlink\b\s*\(?`),
			pats("rmdir", `\brmdir\b\s*\(?`),
			pats("truncate", `\btruncate\b\s*\(?`),
			pats("copy", `\b(?:File::Copy::)?(?:copy|cp|move|mv)\s*\(`),
		),
		"ruby": concat(
			pats("shell", `\b(?:system|exec|spawn|IO\.popen|Open3\.\w+)\b\s*\(?`),
			pats("rm -r", `\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry_secure|remove_entry|rmtree)\b\s*\(?`),
			pats("rm", `\bFileUtils\.(?:rm_f|rm|remove|safe_unlink)\b\s*\(?`, `\bFile\.(?:delete|unlink)\b\s*\(?`),
			pats("rmdir", `\bFileUtils\.rmdir\b\s*\(?`, `\bDir\.(?:rmdir|delete|unlink)\b\s*\(?`),
		),
		"php": concat(
			pats("shell", `\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(`),
			pats("rm", `\bunlink\s*\(`),
			pats("rmdir", `\brmdir\s*\(`),
		),
		// awk programs are data, except what they hand to a shell.
		"awk": pats("shell", `\bsystem\s*\(`),
	}
})

// pathlib: Path("x").unlink() / .rmdir() / .rmtree()
var pathlibRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bPath\s*\(\s*`) })

// Backtick and %x{} / qx{} command strings.
var qxRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:%x|\bqx)\s*([{(\[<|!/])`) })

func concat(ls ...[]callPat) []callPat {
	var out []callPat
	for _, l := range ls {
		out = append(out, l...)
	}
	return out
}

// scanCode looks through interpreter code for shell-outs with literal
// strings (re-parsed as shell) and literal-path file deletion (reported
// as a synthetic rm). It is a careful tokenizer over string literals, not
// a parser for the language: what it cannot read is reported as dynamic.
func (w *walker) scanCode(c *cmd, code, lang string, o Origin) {
	if o.Depth > w.opt.MaxDepth {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
	}
	w.parsed += len(code)
	if w.parsed > reparseBudget*w.opt.MaxBytes {
		w.fail(&LimitError{Limit: "bytes", Max: w.opt.MaxBytes})
	}
	if w.treeCode(c, code, lang, o) {
		return // read with the language's grammar
	}
	if lang == "perl" && perlSocketShell(code) {
		w.synthetic(c, o, &DynamicCode{How: "interpreter", Sources: shellSources([]string{"socket"})}, Word{Value: "socket shell", Static: true})
	}
	if !programs.Scanned(lang) && lang != "awk" {
		w.unreadCode(c, code, o)
	}
	if _, ok := langPats()[lang]; !ok && !programs.Scanned(lang) {
		w.foreignCode(c, code, lang, o) // no reader of the language: what it embeds (foreign.go)
		return
	}
	skip := stringSpans(code, lang)
	inString := func(i int) bool {
		for _, s := range skip {
			if i >= s[0] && i < s[1] {
				return true
			}
			if s[0] > i {
				break
			}
		}
		return false
	}
	seen := map[int]bool{} // call openings handled: patterns may overlap
	for _, p := range langPats()[lang] {
		if !p.mayMatch(code) {
			continue
		}
		for _, m := range p.re.FindAllStringIndex(code, -1) {
			if inString(m[0]) || seen[m[1]] {
				continue
			}
			seen[m[1]] = true
			items, rest := readArgs(code[m[1]:], lang)
			if lang == "perl" && p.kind == "shell" {
				items = perlPaths(items, w.opt.Home) // system("rm -rf $ENV{HOME}/x"), system("rm", "-rf", $ENV{HOME})
			}
			if lang == "perl" && p.kind != "shell" {
				if len(items) == 0 {
					items = []codeItem{{val: exprText(rest)}} // unlink glob(...): no parentheses
				}
				if v := strings.TrimSpace(items[0].val); v == "$_" || strings.HasPrefix(v, "for") {
					if list := perlPostfixFor(rest); list != "" {
						items[0] = codeItem{val: list} // unlink $_ for glob(...): what $_ ranges over
					}
				}
				items = perlPaths(items, w.opt.Home) // glob(...), <...>, $ENV{HOME} (perlglob.go)
			}
			if p.kind == "copy" {
				// File::Copy's copy/move(FROM, TO): TO is written (copy
				// "/dev/null" over a file empties it); $obj->copy is a method
				if len(items) > 1 && !strings.HasSuffix(code[:m[0]], "->") {
					w.fileEffect(c, ">", interp.Str{Value: items[1].val, Static: items[1].static && !w.taint}, o)
				}
				continue
			}
			w.codeCall(c, p.kind, items, rest, o)
		}
	}
	if lang == "perl" && strings.Contains(code, "open") {
		for _, m := range perlOpenRe().FindAllStringIndex(code, 64) {
			if inString(m[0]) {
				continue
			}
			items, rest := readArgs(code[m[1]:], lang)
			kind, args := perlOpen(items)
			switch kind {
			case "shell":
				w.codeCall(c, kind, args, rest, o)
			case "write", "append":
				op := ">"
				if kind == "append" {
					op = ">>"
				}
				ps := perlPaths(args, w.opt.Home)
				if len(ps) == 0 {
					continue
				}
				p := ps[0]
				w.fileEffect(c, op, interp.Str{Value: p.val, Static: p.static && !w.taint}, o)
			}
		}
	}
	if lang == "python" {
		for _, m := range pathlibRe().FindAllStringIndex(code, -1) {
			if inString(m[0]) {
				continue
			}
			items, rest := readArgs(code[m[1]:], lang)
			rest = strings.TrimLeft(rest, " \t)")
			for _, meth := range []struct{ m, kind string }{{".unlink(", "rm"}, {".rmdir(", "rmdir"}, {".rmtree(", "rm -r"}} {
				if strings.HasPrefix(rest, meth.m) && len(items) > 0 {
					w.codeCall(c, meth.kind, items[:1], "", o)
				}
			}
		}
	}
	if lang == "perl" || lang == "ruby" || lang == "php" {
		// `cmd` runs a shell in these languages.
		for _, s := range skip {
			if code[s[0]] == '`' {
				body := code[s[0]+1 : max(s[0]+1, s[1]-1)]
				w.codeCall(c, "shell", []codeItem{{val: body, static: !interpolates(body, lang)}}, "", o)
			}
		}
		for _, m := range qxRe().FindAllStringSubmatchIndex(code, -1) {
			if inString(m[0]) {
				continue
			}
			open := code[m[2]]
			closeCh := map[byte]byte{'{': '}', '(': ')', '[': ']', '<': '>'}[open]
			if closeCh == 0 {
				closeCh = open
			}
			end := strings.IndexByte(code[m[1]:], closeCh)
			if end < 0 {
				continue
			}
			body := code[m[1] : m[1]+end]
			w.codeCall(c, "shell", []codeItem{{val: body, static: !interpolates(body, lang)}}, "", o)
		}
	}
}

// codeItem is one argument of a call in interpreter code.
type codeItem struct {
	val    string
	static bool
	list   []codeItem // a literal list [..] of strings
	isList bool
}

// codeCall reports one shell-out or deletion found in interpreter code.
func (w *walker) codeCall(c *cmd, kind string, items []codeItem, rest string, o Origin) {
	if w.taint {
		for i := range items {
			taint(&items[i])
		}
	}
	inner := *c
	inner.origin = o
	inner.redirs = nil
	inner.runs = nil
	inner.extra = false
	inner.help = false
	inner.stdin = nil
	if kind == "argv" {
		if len(items) == 0 || !items[0].isList {
			return // not a command list: app.run("0.0.0.0") is not a shell-out
		}
		kind = "shell"
	}
	if kind != "shell" {
		if len(items) == 0 {
			items = []codeItem{homePath(exprText(rest))} // a path computed at run time
		}
		flags := []string{}
		switch kind {
		case "rm -r":
			flags = []string{"-rf"}
		case "truncate":
			flags = []string{"-s", "0"} // truncate(F, 0): emptied, as truncate -s 0 F
		case "rm?":
			kind = "rm"
			if strings.Contains(strings.ReplaceAll(rest, " ", ""), "recursive:true") {
				flags = []string{"-rf"}
			}
		}
		name := strings.Fields(kind)[0]
		argv := []arg{{Word: Word{Value: name, Static: true}}}
		for _, f := range flags {
			argv = append(argv, arg{Word: Word{Value: f, Static: true}})
		}
		argv = append(argv, arg{Word: Word{Value: items[0].val, Static: items[0].static && !items[0].isList}})
		inner.argv = argv
		inner.synthetic = true
		w.emit(&inner)
		return
	}
	switch {
	case len(items) == 0:
		// Not readable (a variable, a concatenation): code we cannot judge.
		inner.argv = []arg{{Word: Word{Value: exprText(rest), Static: false}}}
		inner.runs = &DynamicCode{How: "interpreter"}
		w.emit(&inner)
	case items[0].isList:
		inner.argv = listArgv(items[0].list)
		w.run(&scope{w: w, dir: c.dir, remote: c.remote}, &inner)
	case len(items) > 1 && (items[1].isList || items[1].static || !strings.ContainsAny(items[0].val, " \t")) && items[0].static:
		// spawn("rm", ["-rf", "/x"]), system("rm", "-rf", "/x"): an argv.
		argv := []arg{{Word: Word{Value: items[0].val, Static: true}}}
		for _, it := range items[1:] {
			if it.isList {
				argv = append(argv, listArgv(it.list)...)
			} else if it.val != "" || it.static {
				argv = append(argv, arg{Word: Word{Value: it.val, Static: it.static}})
			}
		}
		inner.argv = argv
		w.run(&scope{w: w, dir: c.dir, remote: c.remote}, &inner)
	case items[0].static:
		if !w.reparseOK(&inner, items[0].val, o) {
			inner.argv = []arg{{Word: Word{Value: items[0].val, Static: false}}}
			inner.runs = &DynamicCode{How: "interpreter"}
			w.emit(&inner)
		}
	default:
		// A string built at run time (f"rm -rf {p}", `rm ${p}`, "rm #{p}"):
		// code we cannot read, but its literal parts are still judged, with
		// each interpolation standing for an unknown word.
		inner.argv = []arg{{Word: Word{Value: items[0].val, Static: false}}}
		inner.runs = &DynamicCode{How: "interpreter"}
		w.emit(&inner)
		tmpl := *c
		tmpl.origin = o
		w.reparse(&tmpl, templateToShell(items[0].val), o, nil, false)
	}
}

var interpRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\{[^}]*\}|\$\{[^}]*\}|\{[^}]*\}|[$@][A-Za-z_]\w*`) })

// templateToShell turns a string template of python, JS, ruby or perl
// into shell source where each interpolation is a parameter expansion.
func templateToShell(s string) string {
	return interpRe().ReplaceAllString(s, "$${_interp}")
}

// taint marks strings of code that was itself built by shell expansion:
// a "$" or "`" in them was an unknown value.
func taint(it *codeItem) {
	if strings.ContainsAny(it.val, "$`") {
		it.static = false
	}
	for i := range it.list {
		taint(&it.list[i])
	}
}

func listArgv(list []codeItem) []arg {
	var out []arg
	for _, it := range list {
		out = append(out, arg{Word: Word{Value: it.val, Static: it.static && !it.isList}})
	}
	if len(out) == 0 {
		out = []arg{{Word: Word{Value: "", Static: false}}}
	}
	return out
}

// exprText is the source of the first argument of a call (up to a ","
// or the closing parenthesis at depth 0), for a dynamic word.
func exprText(s string) string {
	depth := 0
	for i := 0; i < len(s) && i < 200; i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return strings.TrimSpace(s[:i])
			}
			depth--
		case ',', ';', '\n':
			if depth == 0 {
				return strings.TrimSpace(s[:i])
			}
		}
	}
	return strings.TrimSpace(s[:min(len(s), 200)])
}

// reparseOK re-parses a literal shell string found in interpreter code;
// false when it is not valid shell.
func (w *walker) reparseOK(c *cmd, src string, o Origin) (ok bool) {
	if o.Depth > w.opt.MaxDepth {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
	}
	defer func() {
		if r := recover(); r != nil {
			if a, isAbort := r.(abort); isAbort {
				if _, syn := a.err.(*SyntaxError); syn {
					ok = false
					return
				}
			}
			panic(r)
		}
	}()
	f := w.parseSource(src, o.Depth)
	sc := &scope{w: w, dir: c.dir, assigns: c.assigns, origin: o, wrap: c.wrappers, remote: c.remote}
	w.stmts(sc, f.Stmts, pipePos{})
	return true
}

// readArgs reads the arguments of a call from just after its opening:
// string literals and literal lists; it stops at the first thing that is
// not one (a variable, a keyword argument) and returns the rest of code.
func readArgs(s, lang string) ([]codeItem, string) {
	var items []codeItem
	for n := 0; n < 64; n++ {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			break
		}
		var it codeItem
		var ok bool
		if s[0] == '[' {
			it, s, ok = readList(s[1:], lang)
		} else {
			it, s, ok = readLiteral(s, lang)
		}
		if !ok {
			if len(items) == 0 {
				return nil, s
			}
			if lang != "perl" {
				break
			}
			// system("rm", "-rf", $dir): a word known at run time, not
			// dropped (perl's list is the argv; perlPaths may know it)
			e := exprText(s)
			if e == "" || !strings.HasPrefix(s, e) {
				break
			}
			it, s = codeItem{val: e}, s[len(e):]
		}
		items = append(items, it)
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" || s[0] != ',' {
			break
		}
		s = s[1:]
	}
	return items, s
}

func readList(s, lang string) (codeItem, string, bool) {
	it := codeItem{isList: true, static: true}
	for n := 0; n < 4096; n++ {
		s = strings.TrimLeft(s, " \t\r\n")
		if strings.HasPrefix(s, "]") {
			return it, s[1:], true
		}
		e, rest, ok := readLiteral(s, lang)
		if !ok {
			// A non-literal element: keep a dynamic placeholder, skip to ].
			end := strings.IndexAny(s, ",]")
			if end < 0 {
				return codeItem{}, s, false
			}
			it.list = append(it.list, codeItem{val: strings.TrimSpace(s[:end])})
			rest = s[end:]
		} else {
			it.list = append(it.list, e)
		}
		s = strings.TrimPrefix(strings.TrimLeft(rest, " \t\r\n"), ",")
	}
	return codeItem{}, s, false
}

// readLiteral reads one string literal at the start of s. It is static
// when it has no interpolation and is not followed by an operator that
// builds a string at run time (+, %, ., .format).
func readLiteral(s, lang string) (codeItem, string, bool) {
	prefix := ""
	for len(prefix) < 2 && len(s) > len(prefix) && strings.ContainsRune("rRbBuUfF", rune(s[len(prefix)])) && lang == "python" {
		prefix += s[len(prefix) : len(prefix)+1]
	}
	body := s[len(prefix):]
	if body == "" || !strings.ContainsRune(`'"`+"`", rune(body[0])) {
		return codeItem{}, s, false
	}
	if body[0] == '`' && lang != "js" {
		return codeItem{}, s, false
	}
	q := body[:1]
	if lang == "python" && (strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, `'''`)) {
		q = body[:3]
	}
	raw := strings.ContainsAny(prefix, "rR")
	var b strings.Builder
	i := len(q)
	closed := false
	for i < len(body) {
		if strings.HasPrefix(body[i:], q) {
			closed = true
			i += len(q)
			break
		}
		ch := body[i]
		if ch == '\\' && i+1 < len(body) {
			if raw || (q == "'" && lang != "python" && lang != "js" && body[i+1] != '\'' && body[i+1] != '\\') {
				b.WriteByte(ch)
				b.WriteByte(body[i+1])
			} else {
				b.WriteString(unescapeCode(body[i+1]))
			}
			i += 2
			continue
		}
		b.WriteByte(ch)
		i++
	}
	if !closed {
		return codeItem{}, s, false
	}
	val := b.String()
	static := true
	switch {
	case strings.ContainsAny(prefix, "fF") && strings.Contains(val, "{"):
		static = false
	case q == "`" && strings.Contains(val, "${"):
		static = false
	case q == `"` && interpolates(val, lang):
		static = false
	}
	rest := body[i:]
	t := strings.TrimLeft(rest, " \t")
	if strings.HasPrefix(t, "+") || strings.HasPrefix(t, "%") || strings.HasPrefix(t, ".format") ||
		((lang == "perl" || lang == "php") && strings.HasPrefix(t, ".")) {
		static = false
	}
	return codeItem{val: val, static: static}, rest, true
}

// interpolates reports string interpolation in a double-quoted literal.
func interpolates(s, lang string) bool {
	switch lang {
	case "perl", "php":
		return strings.ContainsAny(s, "$@")
	case "ruby":
		return strings.Contains(s, "#{")
	}
	return false
}

func unescapeCode(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case '0':
		return "\x00"
	}
	return string(c)
}

// stringSpans lists the [start,end) spans of string literals and
// comments in code, so that a pattern inside a string is not a call.
func stringSpans(code, lang string) [][2]int {
	var spans [][2]int
	quotes := `'"`
	if lang != "python" {
		quotes += "`"
	}
	for i := 0; i < len(code); i++ {
		ch := code[i]
		if ch == '#' && (lang == "python" || lang == "perl" || lang == "ruby" || lang == "awk") {
			end := strings.IndexByte(code[i:], '\n')
			if end < 0 {
				end = len(code) - i
			}
			spans = append(spans, [2]int{i, i + end})
			i += end
			continue
		}
		if !strings.ContainsRune(quotes, rune(ch)) {
			continue
		}
		q := code[i : i+1]
		if lang == "python" && (strings.HasPrefix(code[i:], `"""`) || strings.HasPrefix(code[i:], `'''`)) {
			q = code[i : i+3]
		}
		j := i + len(q)
		for j < len(code) && !strings.HasPrefix(code[j:], q) {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		end := min(j+len(q), len(code))
		spans = append(spans, [2]int{i, end})
		i = end - 1
	}
	return spans
}
