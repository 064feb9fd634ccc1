package parse

import (
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Files on disk and from earlier calls (issue 12, class 4). A file that is
// run (bash x.sh, sh < x.sh, source x, ./x, python3 x.py) and that no
// earlier command of the same source wrote is asked of Options.Files: the
// caller (the judge) reads it from disk, bounded, and may consult the
// session's memory. The parser itself still opens nothing.

// FileState is what Options.Files found for a file that is run.
type FileState int

const (
	// FileAbsent: no such file, or one not to be read (a program
	// installed in a system directory, a binary): judged as before, as
	// the run of a program.
	FileAbsent FileState = iota
	// FileText: Text is the whole content; it is judged as the code the
	// file would run.
	FileText
	// FileUnreadable: the file is there but could not be read whole (over
	// the size cap, not a regular file, a read error: Why): the run is code
	// that cannot be read (DynamicCode How "unreadable-file").
	FileUnreadable
)

// File is Options.Files' answer.
type File struct {
	State FileState
	Text  string
	Why   string // for FileUnreadable
}

// Written is a file a command of the source wrote with known text, as the
// walk left it (a later write of unknown text forgets the file).
type Written struct {
	Path string `json:"path"` // absolute when the directory was known
	Text string `json:"-"`
}

// DynamicCode.How values for code the caller must treat as unjudged.
const (
	// HowUnreadableFile: a script file that is there but could not be read.
	HowUnreadableFile = "unreadable-file"
	// HowUnjudgedCode: interpreter code over the grammar's limits (size,
	// syntax nodes, parse time; package interp's ErrLimit), Sources[0]
	// saying which.
	HowUnjudgedCode = "unjudged-code"
)

// HowStdinReader is the How of a program that is no shell or interpreter running code it
// reads on stdin (make -f -, gdb -x /dev/stdin, sqlite3): the judge counts
// only code fetched or decoded.
const HowStdinReader = "stdin-reader"

// diskText asks Options.Files about the file a static word names, for a
// run by lang's interpreter ("" the shell).
func (w *walker) diskText(c *cmd, a arg, lang string) (File, string) {
	if w.opt.Files == nil || !a.Static || a.Value == "" || a.Value == "-" {
		return File{}, ""
	}
	p := w.resolvePath(c.dir, a.Value)
	if !path.IsAbs(p) {
		return File{}, "" // directory unknown: nothing to read
	}
	return w.opt.Files(p, lang), p
}

// runDisk handles c running a file that Options.Files knows: its text is
// judged as the code it runs, an unreadable file is code that cannot be
// read. It reports false when the file is absent (c is then emitted by
// the caller as before).
func (w *walker) runDisk(c *cmd, a arg, lang string) bool {
	f, p := w.diskText(c, a, lang)
	switch f.State {
	case FileText:
		w.emit(c)
		inner := *c
		inner.stdin = nil
		outer := w.inFile
		w.inFile = p
		w.writtenCode(&inner, f.Text, shebangLang(f.Text, lang), "file "+path.Base(p))
		w.inFile = outer
		return true
	case FileUnreadable:
		c.runs = &DynamicCode{How: HowUnreadableFile, Sources: []string{p + ": " + f.Why}}
		w.emit(c)
		return true
	}
	return false
}

// writtenFiles lists what the source left written, sorted by path.
func (w *walker) writtenFiles() []Written {
	if len(w.written) == 0 {
		return nil
	}
	out := make([]Written, 0, len(w.written))
	for p, t := range w.written {
		out = append(out, Written{Path: p, Text: t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// LangPackageJSON is Script's lang for a package.json: its scripts
// (every one of them) are the code it runs under npm, yarn, pnpm or bun.
const LangPackageJSON = "package.json"

// Script is Parse for the text of a file named name as if it were run by
// lang's interpreter ("" the shell; a #! line in the text overrides it):
// the executions running the file would perform. Text that does not parse
// as the shell yields no executions, as for a re-parse. The session's
// memory uses it to judge what a Write or a heredoc wrote, when it is
// written.
func Script(text, lang, name string, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	if len(text) > opt.MaxBytes {
		return nil, &LimitError{Limit: "bytes", Max: opt.MaxBytes}
	}
	return walk(opt, func(w *walker) {
		c := &cmd{dir: opt.Cwd, origin: Origin{Kind: OriginTop}}
		if lang == LangPackageJSON {
			var pkg struct {
				Scripts map[string]string `json:"scripts"`
			}
			if json.Unmarshal([]byte(text), &pkg) == nil {
				names := make([]string, 0, len(pkg.Scripts))
				for n := range pkg.Scripts {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					w.writtenCode(c, pkg.Scripts[n], "", "package.json "+n)
				}
			}
			return
		}
		if lang == programs.LangEmbedded {
			// agent.lua, setup.R: their shell strings below, and what any
			// language's text shows (a socket shell, a URL loaded)
			w.unreadCode(c, text, Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: "written " + path.Base(name)})
		}
		text, lang := writtenFileText(lang, text) // a notebook's cells, a justfile's recipes
		w.writtenCode(c, text, shebangLang(text, lang), "written "+path.Base(name))
	})
}

// toolFiles judges the project files a toolchain runs (programs.ToolFiles:
// pytest's conftest.py, python -m MOD, pip install . of setup.py, a
// notebook jupyter executes, a justfile), as the files a script run by
// path is judged: what the session's memory and the disk hold.
func (w *walker) toolFiles(c *cmd, fs []programs.ToolFile) {
	for _, f := range fs {
		a := arg{Word: Word{Value: f.Path, Static: true}}
		inner := *c
		inner.stdin, inner.runs = nil, nil
		if programs.IsTreePattern(f.Path) {
			// go test, pytest, npm run --workspaces: every file written
			// earlier in the command that the pattern stands for
			pat := w.resolvePath(c.dir, f.Path)
			for _, wf := range w.writtenFiles() {
				if programs.TreeMatch(pat, wf.Path) {
					text, lang := writtenFileText(treeFileLang(f.Lang, wf.Path), wf.Text)
					w.writtenCode(&inner, text, shebangLang(text, lang), "written "+path.Base(wf.Path))
				}
			}
			w.diskText(c, a, f.Lang) // the session's memory of such a file
			continue
		}
		if t, p, ok := w.writtenText(c, a); ok {
			// written earlier in the same command: judged whole
			text, lang := writtenFileText(f.Lang, t)
			w.writtenCode(&inner, text, shebangLang(text, lang), "written "+path.Base(p))
			continue
		}
		file, abs := w.diskText(c, a, f.Lang)
		if file.State != FileText {
			continue // absent; one that cannot be read is the project's own, left as before
		}
		text, lang := programs.FileText(f.Lang, file.Text)
		outer := w.inFile
		w.inFile = abs
		w.writtenCode(&inner, text, shebangLang(text, lang), "file "+path.Base(abs))
		w.inFile = outer
	}
}

// treeFileLang is the language a file a pattern matched is judged in: the
// pattern's, or for a pattern of any file (run-parts DIR) its own.
func treeFileLang(lang, p string) string {
	if lang != "" {
		return lang
	}
	l, _ := programs.FileLang(path.Base(p))
	return l
}

// writtenFileText is programs.FileText for text written in this session:
// a file of a language no package reads is judged by the shell commands it
// embeds (embedded.go).
func writtenFileText(lang, text string) (string, string) {
	if lang == programs.LangEmbedded {
		return EmbeddedShell(text), ""
	}
	return programs.FileText(lang, text)
}

// compiled keeps, for the files a compiler makes of sources written
// earlier in the same source, the shell text those sources spawn
// (programs.SourceShell), so running the output (./a.out) is judged by it.
func (w *walker) compiled(c *cmd, name string) {
	if len(w.written) == 0 || c.help {
		return
	}
	srcs, outs := programs.Compiles(name, words(c.argv[1:]))
	var text strings.Builder
	for _, s := range srcs {
		if t, _, ok := w.writtenText(c, arg{Word: Word{Value: s, Static: true}}); ok {
			text.WriteString(programs.SourceShell(t))
		}
	}
	if text.Len() == 0 {
		return
	}
	for _, o := range outs {
		w.keepWritten(w.resolvePath(c.dir, o), "#!/bin/sh\n"+text.String())
	}
}
