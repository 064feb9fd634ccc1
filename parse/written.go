package parse

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Write, then run (issue 12, class 4). A file whose whole content an
// earlier command of the same source wrote with known text (echo, printf,
// cat <<EOF, tee, into > or >>) and that is then run (bash x.sh, sh < x,
// source x, ./x, python3 x.py, npm install after package.json) is judged
// by what was written: the text is re-parsed as the shell or scanned as
// the interpreter's code, with Origin source and Via naming the file.
// A write of unknown text forgets what was known of the file.

// maxWritten bounds the text kept per file and in all.
const maxWritten = 256 << 10

// noteWrites records what c wrote to files on its stdout: out is its
// output, known or not.
func (w *walker) noteWrites(c *cmd, out output) {
	var targets []string
	appendTo := map[string]bool{}
	for _, r := range c.redirs {
		if (r.Fd != -1 && r.Fd != 1) || !r.Target.Static {
			continue
		}
		switch r.Op {
		case ">", ">|", "&>":
			targets = append(targets, r.Target.Value)
		case ">>", "&>>":
			targets = append(targets, r.Target.Value)
			appendTo[r.Target.Value] = true
		}
	}
	if len(c.argv) > 0 && c.argv[0].Static && baseName(c.argv[0].Value) == "tee" {
		for _, a := range c.argv[1:] {
			if a.Static && !strings.HasPrefix(a.Value, "-") {
				targets = append(targets, w.resolvePath(c.dir, a.Value))
			} else if a.Static && (a.Value == "-a" || a.Value == "--append") {
				for _, b := range c.argv[1:] {
					if b.Static && !strings.HasPrefix(b.Value, "-") {
						appendTo[w.resolvePath(c.dir, b.Value)] = true
					}
				}
			}
		}
	}
	for _, t := range targets {
		if w.written == nil {
			w.written = map[string]string{}
		}
		old, had := w.written[t]
		switch {
		case !out.static:
			delete(w.written, t)
		case appendTo[t] && had:
			w.keepWritten(t, old+out.text)
		case appendTo[t]:
			// appended to a file of unknown content: what was appended
			// runs whatever came before it
			w.keepWritten(t, out.text)
		default:
			w.keepWritten(t, out.text)
		}
	}
}

func (w *walker) keepWritten(p, text string) {
	if len(text) > maxWritten || w.writtenBytes+len(text) > 4*maxWritten {
		delete(w.written, p)
		return
	}
	w.writtenBytes += len(text)
	w.written[p] = text
}

// resolvePath resolves a static path against dir the way redirect
// targets are ("" when dir is unknown and p is relative).
func (w *walker) resolvePath(dir, p string) string {
	if strings.HasPrefix(p, "~/") && w.opt.Home != "" {
		return path.Join(w.opt.Home, p[2:])
	}
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	if dir == "" {
		return p
	}
	return path.Join(dir, p)
}

// writtenText is the text an earlier command wrote to the file a word names.
func (w *walker) writtenText(c *cmd, a arg) (string, string, bool) {
	if !a.Static || len(w.written) == 0 {
		return "", "", false
	}
	p := w.resolvePath(c.dir, a.Value)
	if t, ok := w.written[p]; ok {
		return t, p, true
	}
	if t, ok := w.written[a.Value]; ok { // both relative, directory unknown
		return t, a.Value, true
	}
	return "", "", false
}

// runWritten handles c running a file whose text is known: it emits c and
// judges the text as code of lang ("" for the shell, or the shebang's).
// It reports false when no operand of c is such a file.
func (w *walker) runWritten(c *cmd, operands []arg, lang string) bool {
	for _, a := range operands {
		text, p, ok := w.writtenText(c, a)
		if !ok {
			continue
		}
		w.emit(c)
		inner := *c
		inner.stdin = nil
		w.writtenCode(&inner, text, shebangLang(text, lang), "written "+path.Base(p))
		return true
	}
	for _, a := range operands {
		if w.runDisk(c, a, lang) {
			return true
		}
	}
	return false
}

func (w *walker) writtenCode(c *cmd, text, lang, via string) {
	if lang == "" {
		w.reparse(c, text, Origin{Kind: OriginSource, Depth: c.origin.Depth + 1, Via: via}, nil, false)
		return
	}
	w.scanCode(c, text, lang, Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: via})
}

// shebangLang is the language a script's #! line names, else def.
func shebangLang(text, def string) string {
	if !strings.HasPrefix(text, "#!") {
		return def
	}
	line, _, _ := strings.Cut(text, "\n")
	f := strings.Fields(line[2:])
	if len(f) == 0 {
		return def
	}
	prog := baseName(f[0])
	if prog == "env" {
		for _, x := range f[1:] {
			if !strings.HasPrefix(x, "-") {
				prog = baseName(x)
				break
			}
		}
	}
	if p := programs.Lookup(prog); p != nil && p.Kind.Has(programs.Interpreter) && programs.Scanned(p.Lang) {
		return p.Lang
	}
	return "" // a shell, or a program we do not read: judged as shell
}

// npmScripts judges the lifecycle scripts of a package.json written
// earlier in the same source when npm (or yarn, pnpm, bun) would run
// them: install runs preinstall, install, postinstall and prepare; run X
// (or test, start) runs preX, X, postX.
func (w *walker) npmScripts(c *cmd, name string) {
	if len(c.argv) < 2 {
		return
	}
	dir := c.dir
	pj := w.resolvePath(dir, "package.json")
	text, ok := w.written[pj]
	if !ok {
		// a package.json on disk, or one an earlier call wrote
		f, _ := w.diskText(c, arg{Word: Word{Value: pj, Static: true}}, LangPackageJSON)
		if f.State == FileUnreadable {
			c2 := *c
			c2.runs = &DynamicCode{How: HowUnreadableFile, Sources: []string{pj + ": " + f.Why}}
			w.emit(&c2)
		}
		if f.State != FileText {
			return
		}
		text = f.Text
		outer := w.inFile
		w.inFile = pj
		defer func() { w.inFile = outer }()
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal([]byte(text), &pkg) != nil || len(pkg.Scripts) == 0 {
		return
	}
	var run []string
	sub := c.argv[1].Value
	switch {
	case sub == "install" || sub == "i" || sub == "ci" || sub == "add" || (name == "yarn" && len(c.argv) == 1):
		run = []string{"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"}
	case (sub == "run" || sub == "run-script") && len(c.argv) > 2:
		s := c.argv[2].Value
		run = []string{"pre" + s, s, "post" + s}
	case sub == "test" || sub == "start" || sub == "stop" || sub == "restart" || name == "yarn" || name == "bun":
		run = []string{"pre" + sub, sub, "post" + sub}
	}
	for _, s := range run {
		if code, ok := pkg.Scripts[s]; ok && code != "" {
			inner := *c
			inner.stdin = nil
			w.writtenCode(&inner, code, "", "package.json "+s)
		}
	}
}
