package parse

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// The PowerShell reader (see winshell.go): tokens, statements, pipelines,
// parameters. Groups ( ), $( ), @( ), { } are read again as PowerShell, so
// iex (iwr URL) sees the download inside.

type psTok struct {
	text   string // the word after quote removal; for a group its inner code
	raw    string // as written
	group  bool   // ( ) $( ) @( ) { } [ ] with what follows (.Method(...))
	quoted bool   // a '...' or "..." string
	static bool   // text holds no variable or sub-expression
	op     string // ";", "|", "=" for separators
	inner  string // a group's code inside its brackets
}

// psTokens splits PowerShell text into tokens.
func psTokens(src string) []psTok {
	var out []psTok
	i := 0
	for i < len(src) {
		ch := src[i]
		switch {
		case ch == ' ' || ch == '\t':
			i++
		case ch == '`' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2 // line continuation
		case ch == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case ch == '<' && strings.HasPrefix(src[i:], "<#"):
			k := strings.Index(src[i:], "#>")
			if k < 0 {
				return out
			}
			i += k + 2
		case ch == ';' || ch == '\n' || ch == '\r':
			out = append(out, psTok{op: ";"})
			i++
		case ch == '|' || ch == '&' && i+1 < len(src) && src[i+1] == '&':
			if i+1 < len(src) && src[i+1] == ch {
				out = append(out, psTok{op: ";"}) // && and || chain statements
				i += 2
				continue
			}
			out = append(out, psTok{op: "|"})
			i++
		case ch == '=' && (i+1 >= len(src) || src[i+1] != '='):
			out = append(out, psTok{op: "="})
			i++
		case ch == '\'' || ch == '"':
			t, n := psString(src[i:])
			i += n
			i += psMember(src[i:], &t)
			out = append(out, t)
		case ch == '(' || ch == '{' || ch == '[' || (ch == '$' || ch == '@') && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == '{' && ch == '@'):
			start := i
			if ch == '$' || ch == '@' {
				i++
			}
			end := psClose(src, i)
			t := psTok{text: src[i+1 : max(i+1, end-1)], group: true}
			t.inner = t.text
			i = end
			i += psMember(src[i:], &t)
			t.raw = src[start:i]
			out = append(out, t)
		default:
			start := i
			for i < len(src) && !strings.ContainsRune(" \t\n\r;|'\"()={}", rune(src[i])) {
				i++
			}
			if i == start {
				i++
				continue
			}
			t := psTok{text: src[start:i], raw: src[start:i], static: !strings.Contains(src[start:i], "$")}
			if i < len(src) && (src[i] == '(' || src[i] == '\'' || src[i] == '"') && strings.Contains(t.text, ".") {
				i += psMember(src[i:], &t) // [Net.WebClient]::new().DownloadString('x')
			}
			out = append(out, t)
		}
	}
	return out
}

// psString reads a quoted string at s[0]: '...' (” is a quote) or "..."
// (` escapes; $ makes it not static).
func psString(s string) (psTok, int) {
	q := s[0]
	var b strings.Builder
	static := true
	i := 1
	for i < len(s) {
		ch := s[i]
		switch {
		case ch == q && i+1 < len(s) && s[i+1] == q:
			b.WriteByte(q)
			i += 2
			continue
		case ch == q:
			return psTok{text: b.String(), raw: s[:i+1], quoted: true, static: static}, i + 1
		case q == '"' && ch == '`' && i+1 < len(s):
			i++
			ch = s[i]
		case q == '"' && ch == '$' && i+1 < len(s) && (isLetter(s[i+1]) || s[i+1] == '{' || s[i+1] == '(' || s[i+1] == '_'):
			static = false
		}
		b.WriteByte(ch)
		i++
	}
	return psTok{text: b.String(), raw: s, quoted: true, static: static}, len(s)
}

// psClose returns the index after the bracket matching the one at s[i],
// skipping strings.
func psClose(s string, i int) int {
	depth := 0
	for k := i; k < len(s); k++ {
		switch s[k] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
			if depth == 0 {
				return k + 1
			}
		case '\'', '"':
			_, n := psString(s[k:])
			k += n - 1
		}
	}
	return len(s)
}

// psMember swallows member access after a token: .Name, ::Name, (args),
// [index], and appends it to the token (raw and text of a group). It
// returns the bytes read.
func psMember(s string, t *psTok) int {
	i := 0
	for i < len(s) {
		switch {
		case s[i] == '.' || strings.HasPrefix(s[i:], "::"):
			k := i + 1
			if s[i] == ':' {
				k = i + 2
			}
			for k < len(s) && (isLetter(s[k]) || s[k] >= '0' && s[k] <= '9' || s[k] == '_') {
				k++
			}
			if k == i+1 || s[i] == ':' && k == i+2 {
				return i
			}
			i = k
		case s[i] == '(' || s[i] == '[':
			i = psClose(s, i)
		default:
			t.raw += s[:i]
			if t.group || !t.quoted {
				t.text += s[:i]
			}
			if i > 0 {
				t.group, t.static = true, false
			}
			return i
		}
	}
	t.raw += s[:i]
	t.text += s[:i]
	if i > 0 {
		t.group, t.static = true, false
	}
	return i
}

// psCode reads PowerShell text. vars maps variables assigned from a
// download or a decode ($c = iwr URL) to those sources.
func (w *walker) psCode(c *cmd, src string, o Origin, vars map[string][]string) {
	w.winBudget(src, o)
	toks := psTokens(src)
	var stmt []psTok
	dir := c.dir
	flush := func() {
		if len(stmt) > 0 {
			dir = w.psStatement(c, stmt, o, vars, dir)
		}
		stmt = nil
	}
	for _, t := range toks {
		if t.op == ";" {
			flush()
			continue
		}
		stmt = append(stmt, t)
	}
	flush()
}

// psStatement judges one statement (a pipeline, maybe assigned to a
// variable); it returns the directory after it (Set-Location).
func (w *walker) psStatement(c *cmd, toks []psTok, o Origin, vars map[string][]string, dir string) string {
	w.tick()
	assignTo := ""
	if len(toks) > 2 && toks[1].op == "=" && strings.HasPrefix(toks[0].text, "$") {
		assignTo = strings.ToLower(toks[0].text)
		toks = toks[2:]
	}
	inner := *c
	inner.dir = dir
	deeper := o
	deeper.Depth++
	// groups run wherever they stand: read them as code first
	for _, t := range toks {
		if t.group && !t.quoted && t.inner != "" {
			w.psCode(&inner, t.inner, deeper, vars)
		}
		if l := strings.ToLower(t.raw); t.group && (strings.Contains(l, "webclient") || strings.Contains(l, ".download") || strings.Contains(l, ".upload")) {
			// (New-Object Net.WebClient).DownloadString(URL) / .UploadFile(URL, F)
			argv := []Word{{Value: "curl", Static: true}}
			if u := firstURL(t.raw); u != "" {
				argv = append(argv, Word{Value: u, Static: true})
			}
			w.synthetic(&inner, o, nil, argv...)
			if k := strings.Index(l, ".uploadfile("); k >= 0 {
				// .UploadFile(URL, FILE): the file is read and sent
				for _, a := range psTokens(t.raw[k+len(".uploadfile("):]) {
					if a.op == "" && !strings.Contains(a.text, "://") && strings.ContainsAny(a.text, `/\~`) {
						w.fileEffect(&inner, "<", istr(w.winWord(strings.Trim(a.text, "()"), dir)), o)
					}
				}
			}
		}
	}
	if psDeletesShadows(toks) {
		// Get-WmiObject Win32_ShadowCopy | Remove-WmiObject, ... | % { $_.Delete() }
		w.synthetic(&inner, o, nil, Word{Value: "vssadmin", Static: true}, Word{Value: "delete", Static: true}, Word{Value: "shadows", Static: true})
	}
	var stages [][]psTok
	var cur []psTok
	for _, t := range toks {
		if t.op == "|" {
			stages = append(stages, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	stages = append(stages, cur)
	var prev []psTok // the stages before, for pipeline input
	for _, st := range stages {
		if len(st) > 0 {
			dir = w.psCommand(&inner, st, prev, o, vars, dir)
			inner.dir = dir
		}
		prev = append(prev, st...)
	}
	if assignTo != "" {
		if srcs := psSources(toks, vars); len(srcs) > 0 {
			vars[assignTo] = srcs
		}
	}
	return dir
}

// psSources names the producers of text among tokens: "curl" for a
// download, "base64" for a decode, as the shell programs of that kind.
func psSources(toks []psTok, vars map[string][]string) []string {
	var out []string
	add := func(s string) {
		for _, x := range out {
			if x == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, t := range toks {
		l := strings.ToLower(t.raw)
		if t.op != "" {
			continue
		}
		if !t.quoted {
			if cmd := programs.PSCommand(strings.TrimSpace(l)); cmd != nil && cmd.Verb == programs.WinFetch {
				add("curl")
			}
			for _, k := range []string{"downloadstring", "downloaddata", "downloadfile", "openread", "net.webclient", "httpclient",
				"invoke-webrequest", "invoke-restmethod", "iwr ", "irm ", "iwr(", "(iwr", "(irm", "start-bitstransfer", "getstringasync"} {
				if strings.Contains(l, k) {
					add("curl")
				}
			}
			if strings.Contains(l, "frombase64string") {
				add("base64")
			}
		}
		for v, srcs := range vars {
			if strings.Contains(l, v) {
				for _, s := range srcs {
					add(s)
				}
			}
		}
	}
	return out
}

// psParams splits a command's tokens into parameters (name -> value
// token, "" value for a switch) and positional arguments. Parameters that
// take a value are the ones the readers need: paths, destinations, URIs,
// bodies, files, filters, script blocks, argument lists.
func psParams(toks []psTok) (map[string]psTok, []psTok) {
	params := map[string]psTok{}
	var pos []psTok
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.quoted && !t.group {
			if name, val, hasVal, ok := programs.PSParam(t.text); ok && t.text[0] == '-' {
				key := psCanon(name)
				switch {
				case hasVal:
					params[key] = psTok{text: val, raw: val, static: !strings.Contains(val, "$")}
				case psTakesValue(key) && i+1 < len(toks):
					i++
					params[key] = toks[i]
				default:
					params[key] = psTok{}
				}
				continue
			}
		}
		pos = append(pos, t)
	}
	return params, pos
}

// psCanon names a written parameter by the full name the readers use.
func psCanon(written string) string {
	for _, p := range []struct {
		full string
		min  int
	}{{"Recurse", 1}, {"Force", 1}, {"Path", 1}, {"LiteralPath", 1}, {"Destination", 1}, {"Uri", 1}, {"Method", 1},
		{"Body", 1}, {"InFile", 2}, {"OutFile", 1}, {"Filter", 2}, {"Include", 2}, {"Exclude", 2}, {"FilePath", 2},
		{"ArgumentList", 1}, {"ScriptBlock", 1}, {"Command", 1}, {"WhatIf", 2}, {"Headers", 1}, {"Value", 1},
		{"Name", 1}, {"ItemType", 2}, {"ComputerName", 2}, {"Credential", 2}, {"Encoding", 2}, {"Source", 1}} {
		if programs.PSParamIs(written, p.full, p.min) {
			return p.full
		}
	}
	if strings.EqualFold(written, "fo") || strings.EqualFold(written, "f") {
		return "Force"
	}
	return strings.ToLower(written)
}

func psTakesValue(full string) bool {
	switch full {
	case "Recurse", "Force", "WhatIf":
		return false
	case "Path", "LiteralPath", "Destination", "Uri", "Method", "Body", "InFile", "OutFile", "Filter", "Include", "Exclude",
		"FilePath", "ArgumentList", "ScriptBlock", "Command", "Headers", "Value", "Name", "ItemType", "ComputerName",
		"Credential", "Encoding", "Source":
		return true
	}
	return false
}

// psWords maps tokens to POSIX words (paths, variables).
func (w *walker) psWords(toks []psTok, dir string) []Word {
	out := make([]Word, 0, len(toks))
	for _, t := range toks {
		wd := w.winWord(t.text, dir) // says itself whether its variables are known
		if t.group {
			wd.Static = false
		}
		out = append(out, wd)
	}
	return out
}

// psCommand judges one pipeline stage; prev are the tokens of the stages
// before it (its input). It returns the directory after it.
func (w *walker) psCommand(c *cmd, toks []psTok, prev []psTok, o Origin, vars map[string][]string, dir string) string {
	if toks[0].op == "" && !toks[0].quoted && (toks[0].text == "&" || toks[0].text == ".") && len(toks) > 1 {
		toks = toks[1:] // the call and dot-source operators
	}
	head := toks[0]
	if head.group || strings.HasPrefix(head.text, "$") && !head.quoted || head.op != "" {
		// an expression: [ScriptBlock]::Create((iwr x)).Invoke(), $x.Invoke()
		l := strings.ToLower(head.raw)
		if strings.Contains(l, "scriptblock]::create") || strings.Contains(l, ".invoke(") {
			w.psEval(c, toks, prev, o, vars)
		}
		if strings.Contains(l, "directory]::delete(") || strings.Contains(l, "file]::delete(") {
			w.psDotNetDelete(c, head, o, dir)
		}
		return dir
	}
	name := head.text
	cmdlet := programs.PSCommand(name)
	args := toks[1:]
	if cmdlet != nil && (strings.EqualFold(name, "curl") || strings.EqualFold(name, "wget")) && posixStyle(args) {
		cmdlet = nil // curl -fsSL ...: curl.exe (pwsh 7 has no curl alias)
	}
	params, pos := psParams(args)
	if _, whatIf := params["WhatIf"]; whatIf {
		return dir // -WhatIf only says what it would do
	}
	pathsOf := func(withPos bool) []Word {
		var ts []psTok
		for _, k := range []string{"Path", "LiteralPath"} {
			if t, ok := params[k]; ok && (t.text != "" || t.group) {
				ts = append(ts, splitComma(t)...)
			}
		}
		if withPos {
			for _, t := range pos {
				ts = append(ts, splitComma(t)...)
			}
		}
		return w.psWords(ts, dir)
	}
	if cmdlet == nil {
		all := make([]psTok, 0, len(toks))
		all = append(all, head)
		all = append(all, args...)
		w.winEmit(c, o, w.psWords(all, dir))
		return dir
	}
	_, recurse := params["Recurse"]
	_, force := params["Force"]
	switch cmdlet.Verb {
	case programs.WinDelete:
		paths := pathsOf(true)
		if len(paths) == 0 {
			paths = w.psListed(prev, dir) // gci ~ -Recurse | Remove-Item
			recurse = recurse || len(paths) > 0
		}
		w.winRm(c, o, recurse, force, paths)
	case programs.WinMove, programs.WinCopy:
		srcs := pathsOf(false)
		destT, ok := params["Destination"]
		rest := pos
		if len(srcs) == 0 && len(rest) > 0 {
			srcs, rest = w.psWords(splitComma(rest[0]), dir), rest[1:]
		}
		if !ok && len(rest) > 0 {
			destT, ok = rest[0], true
		}
		if ok {
			prog := "mv"
			if cmdlet.Verb == programs.WinCopy {
				prog = "cp"
			}
			w.winCopy(c, o, prog, srcs, w.psWords([]psTok{destT}, dir)[0])
		}
	case programs.WinRead:
		for _, p := range pathsOf(cmdlet.Name == "Get-Content" || len(params) == 0 || !strings.EqualFold(cmdlet.Name, "Import-Csv")) {
			w.fileEffect(c, "<", istr(p), o)
		}
	case programs.WinWrite, programs.WinAppend:
		op := ">"
		if cmdlet.Verb == programs.WinAppend {
			op = ">>"
		}
		ps := pathsOf(false)
		if t, ok := params["FilePath"]; ok {
			ps = append(ps, w.psWords([]psTok{t}, dir)...)
		}
		if len(ps) == 0 && len(pos) > 0 {
			ps = w.psWords(pos[:1], dir)
		}
		for _, p := range ps {
			w.fileEffect(c, op, istr(p), o)
		}
	case programs.WinFetch:
		w.psFetch(c, params, pos, prev, o, dir)
	case programs.WinEval:
		w.psEval(c, toks, prev, o, vars)
	case programs.WinStart:
		prog, ok := params["FilePath"]
		rest := pos
		if !ok && len(rest) > 0 {
			prog, rest, ok = rest[0], rest[1:], true
		}
		if !ok {
			return dir
		}
		argT, has := params["ArgumentList"]
		if !has && len(rest) > 0 {
			argT, has = rest[0], true
		}
		line := []psTok{prog}
		if has {
			for _, a := range splitComma(argT) {
				if a.quoted && strings.ContainsAny(a.text, " \t") {
					// '-c rm -rf ~': one string, the program's words
					for _, f := range strings.Fields(a.text) {
						line = append(line, psTok{text: f, raw: f, static: a.static})
					}
				} else {
					line = append(line, a)
				}
			}
		}
		w.psCommand(c, line, nil, o, vars, dir)
	case programs.WinScriptBlock:
		// its script block was read as a group already
	case programs.WinList:
		if ps := pathsOf(true); len(ps) == 1 && strings.EqualFold(strings.TrimSuffix(ps[0].Value, "/"), "env:") {
			w.synthetic(c, o, nil, Word{Value: "env", Static: true})
		}
	case programs.WinChdir:
		if ps := pathsOf(true); len(ps) == 1 {
			if p := ps[0]; p.Static && strings.HasPrefix(p.Value, "/") {
				return p.Value
			} else if p.Static && dir != "" && !strings.Contains(p.Value, ":") {
				return resolve(dir, p.Value)
			}
			return ""
		}
	}
	return dir
}

// posixStyle reports arguments written for curl.exe/wget.exe rather than
// for Invoke-WebRequest: -fsSL, -o, -d, --data.
func posixStyle(args []psTok) bool {
	for _, a := range args {
		if a.quoted || a.group {
			continue
		}
		if strings.HasPrefix(a.text, "--") || len(a.text) >= 2 && len(a.text) <= 5 && a.text[0] == '-' && a.text != "-Uri" &&
			!programs.PSParamIs(a.text[1:], "Uri", 1) && !programs.PSParamIs(a.text[1:], "Method", 1) && !programs.PSParamIs(a.text[1:], "Body", 1) &&
			!programs.PSParamIs(a.text[1:], "OutFile", 1) && !programs.PSParamIs(a.text[1:], "InFile", 2) {
			return true
		}
	}
	return false
}

// splitComma splits a PowerShell array argument (a,b,'c') into items.
func splitComma(t psTok) []psTok {
	if t.quoted || t.group || !strings.Contains(t.text, ",") {
		return []psTok{t}
	}
	var out []psTok
	for _, p := range strings.Split(t.text, ",") {
		if p = strings.Trim(p, `'"`); p != "" {
			out = append(out, psTok{text: p, raw: p, static: !strings.Contains(p, "$")})
		}
	}
	return out
}

// psListed returns what an earlier Get-ChildItem stage lists, as the
// entries below its path (all of them: ROOT/*; with -Filter/-Include the
// pattern below ROOT).
func (w *walker) psListed(prev []psTok, dir string) []Word {
	var stage []psTok
	for i := range prev {
		if !prev[i].quoted && !prev[i].group {
			if cmd := programs.PSCommand(prev[i].text); cmd != nil && cmd.Verb == programs.WinList {
				stage = prev[i+1:]
			}
		}
	}
	if stage == nil {
		return nil
	}
	params, pos := psParams(stage)
	root := Word{Value: dir, Static: dir != ""}
	if t, ok := params["Path"]; ok {
		root = w.psWords([]psTok{t}, dir)[0]
	} else if t, ok := params["LiteralPath"]; ok {
		root = w.psWords([]psTok{t}, dir)[0]
	} else if len(pos) > 0 {
		root = w.psWords(pos[:1], dir)[0]
	}
	pat := "*"
	for _, k := range []string{"Filter", "Include"} {
		if t, ok := params[k]; ok && t.text != "" {
			pat = t.text
		}
	}
	if root.Value == "" {
		return nil
	}
	root.Value = strings.TrimSuffix(root.Value, "/") + "/" + pat
	return []Word{root}
}

// psFetch emits a synthetic curl for Invoke-WebRequest & co: -Method,
// -Body or pipeline input (sent), -InFile (a file sent), -OutFile (a file
// written).
func (w *walker) psFetch(c *cmd, params map[string]psTok, pos []psTok, prev []psTok, o Origin, dir string) {
	argv := []Word{{Value: "curl", Static: true}}
	if m, ok := params["Method"]; ok && m.text != "" {
		argv = append(argv, Word{Value: "-X", Static: true}, Word{Value: strings.ToUpper(m.text), Static: m.static})
	}
	if b, ok := params["Body"]; ok {
		body := w.psWords([]psTok{b}, dir)[0]
		argv = append(argv, Word{Value: "-d", Static: true}, body)
	} else if len(prev) > 0 {
		argv = append(argv, Word{Value: "--data-binary", Static: true}, Word{Value: "@-", Static: true})
	}
	if f, ok := params["InFile"]; ok {
		argv = append(argv, Word{Value: "-T", Static: true}, w.psWords([]psTok{f}, dir)[0])
	}
	if f, ok := params["Destination"]; ok { // Start-BitsTransfer -Source URL -Destination F
		argv = append(argv, Word{Value: "-o", Static: true}, w.psWords([]psTok{f}, dir)[0])
	}
	if f, ok := params["OutFile"]; ok {
		argv = append(argv, Word{Value: "-o", Static: true}, w.psWords([]psTok{f}, dir)[0])
	}
	if u, ok := params["Uri"]; ok {
		argv = append(argv, w.psWords([]psTok{u}, dir)[0])
	} else if u, ok := params["Source"]; ok {
		argv = append(argv, w.psWords([]psTok{u}, dir)[0])
	} else if len(pos) > 0 {
		argv = append(argv, w.psWords(pos[:1], dir)[0])
	}
	w.synthetic(c, o, nil, argv...)
}

// psEval judges Invoke-Expression (and [ScriptBlock]::Create(...)): a
// static string is read as PowerShell; text from a download or a decode
// is code from there; anything else is code that cannot be read.
func (w *walker) psEval(c *cmd, toks []psTok, prev []psTok, o Origin, vars map[string][]string) {
	args := toks[1:]
	if len(toks) == 1 || toks[0].group {
		args = toks
	}
	if len(args) == 1 && args[0].quoted && args[0].static {
		o.Depth++
		w.psCode(c, args[0].text, o, vars)
		return
	}
	srcs := psSources(append(append([]psTok(nil), prev...), args...), vars)
	w.synthetic(c, o, &DynamicCode{How: "eval", Sources: srcs}, Word{Value: "invoke-expression", Static: true})
}

// psDotNetDelete reads [IO.Directory]::Delete(PATH, $true) and
// [IO.File]::Delete(PATH).
func (w *walker) psDotNetDelete(c *cmd, t psTok, o Origin, dir string) {
	l := strings.ToLower(t.raw)
	k := strings.Index(l, "]::delete(")
	if k < 0 {
		return
	}
	inside := t.raw[k+len("]::delete("):]
	inside = inside[:max(0, psClose("("+inside, 0)-2)]
	first, _, _ := strings.Cut(inside, ",")
	parts := psTokens(first)
	if len(parts) == 0 {
		return
	}
	p := w.psWords(parts[:1], dir)
	recursive := strings.Contains(l, "directory]::") && strings.Contains(strings.ToLower(inside), "$true")
	w.winRm(c, o, recursive, true, p)
}

// firstURL returns the first http(s) URL written in s.
func firstURL(s string) string {
	l := strings.ToLower(s)
	k := strings.Index(l, "http://")
	if h := strings.Index(l, "https://"); h >= 0 && (k < 0 || h < k) {
		k = h
	}
	if k < 0 {
		return ""
	}
	e := k
	for e < len(s) && !strings.ContainsRune(" \t'\"()`,;|", rune(s[e])) {
		e++
	}
	return s[k:e]
}

// psDeletesShadows reports a statement that deletes Win32_ShadowCopy
// objects.
func psDeletesShadows(toks []psTok) bool {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(strings.ToLower(t.raw))
		b.WriteByte(' ')
	}
	l := b.String()
	return strings.Contains(l, "win32_shadowcopy") &&
		(strings.Contains(l, "remove-wmiobject") || strings.Contains(l, "remove-ciminstance") || strings.Contains(l, ".delete("))
}
