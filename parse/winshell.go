package parse

import (
	"encoding/base64"
	"path"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/sentinel-guard/sentinel/interp"
	"github.com/sentinel-guard/sentinel/programs"
)

// Windows shells: cmd /c TEXT and powershell -Command TEXT (-enc BASE64,
// stdin) are read by two small readers, not full parsers: words, quotes,
// statements, pipelines, groups ( ), $( ), { }. What the words do is
// emitted as the POSIX executions every rule knows (programs/windows.go
// says which verbs are which): Remove-Item -Recurse -Force ~ and
// rd /s /q C:\x are rm -rf, Get-Content a read (":" < file),
// Invoke-WebRequest a curl, iex of downloaded text code from curl. Other
// programs run with their words (vssadmin, bcdedit, git, curl.exe), through
// the same unwrapping as any command. Windows paths become POSIX ones:
// C:\x is /mnt/c/x (WSL's form), %USERPROFILE%, $env:USERPROFILE, $HOME
// and ~ are home, %TEMP% and $env:TEMP are /tmp.

// winShell judges cmd or powershell/pwsh; lang is "cmd" or "powershell".
func (w *walker) winShell(c *cmd, name, lang string) {
	args := c.argv[1:]
	var code []arg
	found := false
	o := Origin{Kind: OriginShellString, Depth: c.origin.Depth + 1, Via: name}
	if lang == "cmd" {
		for i, a := range args {
			v := strings.ToLower(strings.TrimPrefix(a.Value, "/"))
			if a.Static && (v == "/c" || v == "/k" || v == "/r" || v == "c" || v == "k" || v == "r") && strings.HasPrefix(a.Value, "/") {
				code, found = args[i+1:], true
				o.Via = name + " " + a.Value
				break
			}
			if !a.Static || !strings.HasPrefix(a.Value, "/") {
				break
			}
		}
	} else {
	scan:
		for i := 0; i < len(args); i++ {
			a := args[i]
			kind := ""
			if a.Static {
				kind = programs.PSShellArg(a.Value)
			}
			switch kind {
			case "command":
				code, found = args[i+1:], true
				o.Via = name + " " + a.Value
				break scan
			case "encoded":
				o.Via = name + " " + a.Value
				if i+1 >= len(args) {
					break scan
				}
				text, ok := decodePSEncoded(args[i+1])
				if !ok {
					c.runs = &DynamicCode{How: "shell-c", Sources: args[i+1].srcs}
					w.emit(c)
					return
				}
				code, found = []arg{{Word: Word{Value: text, Static: true}}}, true
				break scan
			case "file":
				w.emit(c) // runs a script file
				return
			case "value":
				i++
			case "flag":
			default:
				if name == "pwsh" && a.Static && strings.HasSuffix(strings.ToLower(a.Value), ".ps1") {
					w.emit(c) // pwsh script.ps1: -File is its default
					return
				}
				code, found = args[i:], true // powershell TEXT: -Command is the default
				break scan
			}
		}
	}
	if found && len(code) == 1 && code[0].Static && code[0].Value == "-" {
		found, code = false, nil // the code is read from stdin
	}
	if !found {
		in := c.stdin
		if in == nil || in.file {
			w.emit(c) // interactive, or a script file on stdin
			return
		}
		if !in.static {
			c.runs = &DynamicCode{How: "shell-stdin", Sources: in.srcs}
			w.emit(c)
			return
		}
		code = []arg{{Word: Word{Value: in.text, Static: true}}}
		o.Kind = OriginShellStdin
	}
	if !winStatic(code) {
		// bash expands $x in the text first; what it cannot know is
		// dynamic, and the rest is still read ($env:USERPROFILE, $true
		// keep their source form)
		c.runs = &DynamicCode{How: "shell-c", Sources: argSrcs(code)}
	}
	w.emit(c)
	if len(code) == 0 {
		return
	}
	src := joinArgs(code)
	if lang == "cmd" {
		src = cmdJoin(code) // the C runtime quotes words with blanks for cmd
	}
	inner := *c
	inner.stdin, inner.runs, inner.extra = nil, nil, false
	if lang == "cmd" {
		w.cmdCode(&inner, src, o)
	} else {
		w.psCode(&inner, src, o, map[string][]string{})
	}
}

// winStatic reports words whose text is what the Windows shell gets: static,
// or only a glob (bash expands *.go to file names, which are data).
func winStatic(ws []arg) bool {
	for _, a := range ws {
		if !a.Static && (a.subst || strings.ContainsAny(a.Value, "$`")) {
			return false
		}
	}
	return true
}

// cmdJoin joins words for cmd.exe as a Windows program receives them: a
// word with blanks or cmd's operators is quoted.
func cmdJoin(ws []arg) string {
	var b strings.Builder
	for i, a := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		if i > 0 && strings.ContainsAny(a.Value, " \t&|<>^") && !strings.Contains(a.Value, `"`) {
			b.WriteString(`"` + a.Value + `"`)
		} else {
			b.WriteString(a.Value)
		}
	}
	return b.String()
}

// decodePSEncoded decodes -EncodedCommand: base64 of UTF-16LE text.
func decodePSEncoded(a arg) (string, bool) {
	if !a.Static {
		return "", false
	}
	s := strings.TrimSpace(a.Value)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "=")); err != nil {
			return "", false
		}
	}
	if len(b) == 0 || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	text := string(utf16.Decode(u))
	for _, r := range text {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0xfffd {
			return "", false // not text: nothing PowerShell would run
		}
	}
	return text, true
}

// winBudget counts code read by the Windows readers against the parse
// budget and the nesting limit.
func (w *walker) winBudget(src string, o Origin) {
	if o.Depth > w.opt.MaxDepth {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxDepth})
	}
	w.parsed += len(src)
	if w.parsed > reparseBudget*w.opt.MaxBytes {
		w.fail(&LimitError{Limit: "bytes", Max: w.opt.MaxBytes})
	}
}

// winWord maps one Windows word to a POSIX word: drive paths, backslashes,
// the home, temp and system variables of cmd (%X%) and PowerShell
// ($env:X, $HOME, ~). A variable it does not know makes the word dynamic.
func (w *walker) winWord(v, dir string) Word {
	home := w.opt.Home
	static := true
	var b strings.Builder
	for i := 0; i < len(v); {
		rest := v[i:]
		if rest[0] == '%' {
			if k := strings.IndexByte(rest[1:], '%'); k > 0 {
				val, ok := winVar(rest[1:1+k], home)
				if !ok {
					static = false
					val = rest[:k+2]
				}
				b.WriteString(val)
				i += k + 2
				continue
			}
		}
		if strings.HasPrefix(rest, "$(") || strings.HasPrefix(rest, "@(") {
			static = false // a sub-expression
		}
		if rest[0] == '$' {
			n := psVarName(rest[1:])
			if n != "" {
				val, ok := winVar(strings.TrimPrefix(strings.Trim(n, "{}"), "env:"), home)
				if strings.EqualFold(n, "pwd") && dir != "" {
					val, ok = dir, true
				}
				if !ok {
					static = false
					val = "$" + strings.TrimPrefix(strings.Trim(n, "{}"), "env:")
				}
				b.WriteString(val)
				i += 1 + len(n)
				continue
			}
		}
		b.WriteByte(rest[0])
		i++
	}
	s := strings.ReplaceAll(b.String(), `\`, "/")
	switch {
	case len(s) >= 2 && s[1] == ':' && isLetter(s[0]):
		s = "/mnt/" + strings.ToLower(s[:1]) + "/" + strings.TrimLeft(s[2:], "/")
		s = strings.TrimSuffix(s, "/")
	case s == "~" && home != "":
		s = home
	case strings.HasPrefix(s, "~/") && home != "":
		s = home + s[1:]
	}
	return Word{Value: s, Static: static}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// psVarName reads a PowerShell variable name after "$": env:NAME, NAME,
// {NAME}; "" when none.
func psVarName(s string) string {
	if strings.HasPrefix(s, "{") {
		if k := strings.IndexByte(s, '}'); k > 0 {
			return s[:k+1]
		}
		return ""
	}
	k := 0
	if len(s) > 4 && strings.EqualFold(s[:4], "env:") {
		k = 4
	}
	for k < len(s) && (isLetter(s[k]) || s[k] >= '0' && s[k] <= '9' || s[k] == '_' || s[k] == '(' && false) {
		k++
	}
	if k == 0 || k == 4 && len(s) >= 4 && strings.EqualFold(s[:4], "env:") {
		return ""
	}
	return s[:k]
}

// winVar is the value of a Windows environment or PowerShell automatic
// variable the judge can know.
func winVar(n, home string) (string, bool) {
	switch strings.ToUpper(n) {
	case "USERPROFILE", "HOME":
		return home, home != ""
	case "HOMEPATH":
		return home, home != ""
	case "HOMEDRIVE":
		return "", true // %HOMEDRIVE%%HOMEPATH% is the home
	case "TEMP", "TMP":
		return "/tmp", true
	case "APPDATA":
		return home + "/AppData/Roaming", home != ""
	case "LOCALAPPDATA":
		return home + "/AppData/Local", home != ""
	case "SYSTEMROOT", "WINDIR":
		return "C:/Windows", true
	case "SYSTEMDRIVE":
		return "C:", true
	case "PROGRAMFILES":
		return "C:/Program Files", true
	case "PROGRAMDATA", "ALLUSERSPROFILE":
		return "C:/ProgramData", true
	}
	return "", false
}

// winEmit runs one Windows command given as POSIX words: a program the
// model knows goes through the ordinary unwrapping (git, curl.exe, cmd,
// powershell); anything else is emitted as it is, by its Windows name
// (vssadmin, bcdedit, set-mppreference), for the Windows rules.
func (w *walker) winEmit(c *cmd, o Origin, words []Word) {
	if len(words) == 0 {
		return
	}
	inner := *c
	inner.origin = o
	inner.redirs, inner.stdin, inner.extra, inner.help, inner.runs = nil, nil, false, false, nil
	inner.argv = make([]arg, len(words))
	for i, wd := range words {
		inner.argv[i] = arg{Word: wd}
	}
	n := programs.WinName(words[0].Value)
	if programs.Lookup(n) != nil {
		inner.argv[0].Value = n
		w.run(&scope{w: w, dir: c.dir, assigns: c.assigns, origin: o, wrap: c.wrappers, remote: c.remote}, &inner)
		return
	}
	if v := words[0].Value; words[0].Static && winRunsFile(v) {
		// a program or script by its file (a.exe, .\x.ps1, C:\t\x.bat):
		// run as a path, so a file written earlier in the command is known
		if !strings.Contains(v, "/") {
			inner.argv[0].Value = "./" + v
		}
		w.run(&scope{w: w, dir: c.dir, assigns: c.assigns, origin: o, wrap: c.wrappers, remote: c.remote}, &inner)
		return
	}
	inner.argv[0] = arg{Word: Word{Value: n, Static: words[0].Static}}
	inner.synthetic = true
	w.emit(&inner)
}

// winRunsFile reports a program named by its file: x.exe, x.bat, x.cmd,
// x.ps1, or a path.
func winRunsFile(v string) bool {
	l := strings.ToLower(v)
	for _, ext := range []string{".exe", ".bat", ".cmd", ".ps1", ".com"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return strings.Contains(v, "/")
}

// winRm emits rm [-r] [-f] of paths.
func (w *walker) winRm(c *cmd, o Origin, recursive, force bool, paths []Word) {
	if len(paths) == 0 {
		return
	}
	argv := []Word{{Value: "rm", Static: true}}
	switch {
	case recursive && force:
		argv = append(argv, Word{Value: "-rf", Static: true})
	case recursive:
		argv = append(argv, Word{Value: "-r", Static: true})
	case force:
		argv = append(argv, Word{Value: "-f", Static: true})
	}
	argv = append(argv, Word{Value: "--", Static: true})
	w.synthetic(c, o, nil, append(argv, paths...)...)
}

// winCopy emits mv/cp/rsync --delete SRC... DEST.
func (w *walker) winCopy(c *cmd, o Origin, prog string, srcs []Word, dest Word) {
	if len(srcs) == 0 || dest.Value == "" {
		return
	}
	argv := []Word{{Value: prog, Static: true}}
	switch prog {
	case "cp":
		argv = append(argv, Word{Value: "-r", Static: true})
	case "rsync":
		argv = append(argv, Word{Value: "-a", Static: true}, Word{Value: "--delete", Static: true})
	}
	w.synthetic(c, o, nil, append(append(argv, srcs...), dest)...)
}

// ---- cmd.exe ----

// cmdCode reads cmd.exe text: commands split at & && || | (outside
// quotes, ^ escapes), @ and ( ) dropped, words split at blanks.
func (w *walker) cmdCode(c *cmd, src string, o Origin) {
	w.winBudget(src, o)
	inner := *c
	for _, line := range cmdSplit(src) {
		if b := programs.CmdBuiltin(line[0]); b != nil && b.Verb == programs.WinChdir {
			inner.dir = w.cmdChdir(inner.dir, line[1:])
			continue
		}
		w.cmdCommand(&inner, line, o)
	}
}

// cmdChdir is the directory after cd [/d] PATH ("" when unknown).
func (w *walker) cmdChdir(dir string, args []string) string {
	if len(args) > 0 && strings.EqualFold(args[0], "/d") {
		args = args[1:]
	}
	if len(args) == 0 {
		return dir // cd alone prints the directory
	}
	p := w.winWord(strings.Join(args, " "), dir)
	switch {
	case !p.Static:
		return ""
	case strings.HasPrefix(p.Value, "/"):
		return path.Clean(p.Value)
	case dir != "":
		return resolve(dir, p.Value)
	}
	return ""
}

// cmdSplit splits cmd text into commands, each a list of words.
func cmdSplit(src string) [][]string {
	var out [][]string
	var cur []string
	var word strings.Builder
	inWord, quoted := false, false
	flushWord := func() {
		if inWord {
			cur = append(cur, word.String())
		}
		word.Reset()
		inWord = false
	}
	flushCmd := func() {
		flushWord()
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case ch == '"':
			quoted = !quoted
			inWord = true
		case quoted:
			word.WriteByte(ch)
		case ch == '^' && i+1 < len(src):
			i++
			word.WriteByte(src[i])
			inWord = true
		case ch == '&' || ch == '|' || ch == '\n' || ch == '\r':
			if i+1 < len(src) && src[i+1] == ch {
				i++
			}
			flushCmd()
		case ch == ' ' || ch == '\t' || ch == ',' || ch == ';' || ch == '(' || ch == ')':
			flushWord()
		case ch == '@' && !inWord && len(cur) == 0:
		default:
			word.WriteByte(ch)
			inWord = true
		}
	}
	flushCmd()
	return out
}

// cmdCommand judges one cmd command.
func (w *walker) cmdCommand(c *cmd, words []string, o Origin) {
	w.tick()
	var plain []string
	var redirs []Redirect
	for i := 0; i < len(words); i++ {
		v := words[i]
		if k := strings.IndexByte(v, '>'); k >= 0 && (k == 0 || k == 1 && (v[0] >= '0' && v[0] <= '9')) {
			op := ">"
			t := v[k+1:]
			if strings.HasPrefix(t, ">") {
				op, t = ">>", t[1:]
			}
			if t == "" && i+1 < len(words) {
				i++
				t = words[i]
			}
			if tl := strings.ToLower(t); tl != "nul" && !strings.HasPrefix(t, "&") && t != "" {
				redirs = append(redirs, Redirect{Op: op, Fd: -1, Target: w.winWord(t, c.dir)})
			}
			continue
		}
		plain = append(plain, v)
	}
	for _, r := range redirs {
		w.fileEffect(c, r.Op, istr(r.Target), o)
	}
	if len(plain) == 0 {
		return
	}
	if strings.EqualFold(plain[0], "for") {
		w.cmdFor(c, plain, o)
		return
	}
	b := programs.CmdBuiltin(plain[0])
	var switches, ops []string
	for _, a := range plain[1:] {
		if len(a) >= 2 && a[0] == '/' && !strings.Contains(a[1:], "/") && len(a) <= 12 {
			switches = append(switches, strings.ToLower(a))
		} else {
			ops = append(ops, a)
		}
	}
	paths := func(list []string) []Word {
		out := make([]Word, 0, len(list))
		for _, p := range list {
			out = append(out, w.winWord(p, c.dir))
		}
		return out
	}
	if b == nil {
		all := make([]Word, 0, len(plain))
		for _, p := range plain {
			if strings.HasPrefix(p, "/") && len(p) <= 12 {
				all = append(all, Word{Value: p, Static: true}) // a switch, not a path
			} else {
				all = append(all, w.winWord(p, c.dir))
			}
		}
		w.winEmit(c, o, all)
		return
	}
	has := func(s ...string) bool {
		for _, x := range switches {
			for _, y := range s {
				if x == y || strings.HasPrefix(x, y+":") {
					return true
				}
			}
		}
		return false
	}
	switch b.Verb {
	case programs.WinDelete:
		recursive := has("/s")
		if b.Name == "rd" && !recursive {
			return // rd without /s removes only empty directories
		}
		w.winRm(c, o, recursive, has("/f", "/q") || recursive, paths(ops))
	case programs.WinMove:
		if len(ops) >= 2 {
			if strings.EqualFold(plain[0], "ren") || strings.EqualFold(plain[0], "rename") {
				return // a new name in the same directory
			}
			p := paths(ops)
			w.winCopy(c, o, "mv", p[:len(p)-1], p[len(p)-1])
		}
	case programs.WinCopy:
		if len(ops) >= 2 {
			p := paths(ops)
			prog := "cp"
			if strings.EqualFold(programs.WinName(plain[0]), "robocopy") {
				p = p[:2] // robocopy SRC DEST [files...]
				switch {
				case has("/mir", "/purge"):
					prog = "rsync"
				case has("/move", "/mov"):
					prog = "mv"
				}
			}
			w.winCopy(c, o, prog, p[:len(p)-1], p[len(p)-1])
		}
	case programs.WinRead:
		for _, p := range paths(ops) {
			w.fileEffect(c, "<", istr(p), o)
		}
	case programs.WinStart:
		rest := plain[1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "/") {
			if strings.EqualFold(rest[0], "/d") && len(rest) > 1 {
				rest = rest[1:]
			}
			rest = rest[1:]
		}
		if strings.EqualFold(plain[0], "start") && len(rest) > 1 && rest[0] == "" {
			rest = rest[1:] // start "" prog: the title
		}
		if len(rest) > 0 {
			w.cmdCommand(c, rest, o)
		}
	case programs.WinEnvDump:
		if len(ops) == 0 {
			w.synthetic(c, o, nil, Word{Value: "env", Static: true})
		}
	}
}

func istr(wd Word) interp.Str { return interp.Str{Value: wd.Value, Static: wd.Static} }

// cmdFor reads for [/r ROOT|/d|/f OPTS] %v in (SET) do CMD: CMD runs once
// per item of SET with %v replaced; with /r the items are every file below
// ROOT, judged as ROOT\* (the parentheses were dropped as separators).
func (w *walker) cmdFor(c *cmd, words []string, o Origin) {
	in := slices.IndexFunc(words, func(s string) bool { return strings.EqualFold(s, "in") })
	do := slices.IndexFunc(words, func(s string) bool { return strings.EqualFold(s, "do") })
	if in < 2 || do < in || do+1 >= len(words) {
		return
	}
	v := words[in-1]
	root := ""
	for k := 1; k < in-1; k++ {
		if strings.EqualFold(words[k], "/r") && k+1 < in-1 && !strings.HasPrefix(words[k+1], "%") {
			root = words[k+1]
		}
	}
	items := words[in+1 : do]
	if root != "" || len(items) == 0 || len(items) > maxParallelJobs {
		if root == "" {
			root = "."
		}
		items = []string{strings.TrimSuffix(root, `\`) + `\*`}
	}
	for _, it := range items {
		line := make([]string, 0, len(words)-do-1)
		for _, x := range words[do+1:] {
			line = append(line, strings.ReplaceAll(x, v, it))
		}
		w.cmdCommand(c, line, o)
	}
}
