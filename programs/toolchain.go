package programs

import (
	"encoding/json"
	"path"
	"strings"
)

// Toolchains that run the project's files (issue 19 class 1): a test
// runner runs conftest.py, `python -m MOD` runs MOD.py, pip runs setup.py,
// tsx runs its script, jupyter runs a notebook's cells, just runs the
// justfile's recipes, pre-commit its hooks' entries, pwsh -File a script.
// ToolFiles says which files (relative to the execution's directory) and
// in which language; the judge reads them as it reads a script run by
// path (the session's memory of a write, then the disk), so a file written
// this session and run by any of these gets the verdict of its content.

// ToolFile is a file a toolchain runs.
type ToolFile struct {
	Path string // as named, or relative to the directory
	Lang string // "" shell, "python", "js", or a FileText language below
}

// The languages of files whose text is converted before it is judged
// (FileText): notebooks, justfiles, pre-commit configurations,
// PowerShell scripts.
const (
	LangNotebook  = "ipynb"
	LangJustfile  = "justfile"
	LangPreCommit = "pre-commit"
	LangPwsh      = "pwsh"
)

// stdlibModules are python -m modules that run no project file.
var stdlibModules = map[string]bool{"pip": true, "venv": true, "http.server": true, "json.tool": true, "pytest": true,
	"unittest": true, "py_compile": true, "compileall": true, "timeit": true, "pdb": true, "cProfile": true,
	"site": true, "ensurepip": true, "build": true, "twine": true, "black": true, "ruff": true, "mypy": true,
	"flake8": true, "isort": true, "pylint": true, "coverage": true, "uvicorn": true, "gunicorn": true,
	"flask": true, "django": true, "pydoc": true, "zipfile": true, "tarfile": true, "base64": true, "SimpleHTTPServer": true,
	"pyright": true, "poetry": true, "pipx": true, "virtualenv": true, "tox": true, "nox": true, "ipykernel": true,
	"jupyter": true, "notebook": true, "IPython": true, "doctest": true, "trace": true, "calendar": true}

// ToolFiles are the project files name with args runs: its own below,
// and the configuration and scripts of ProjectFiles (projectfiles.go).
func ToolFiles(name string, args []string) []ToolFile {
	return append(append(toolFiles(name, args), ProjectFiles(name, args)...), TreeFiles(name, args)...)
}

func toolFiles(name string, args []string) []ToolFile {
	switch Canon(name) {
	case "pytest", "py.test":
		return append(pyOperands(args), conftests...) // pytest test_a.py imports and runs it
	case "cargo":
		return cargoFiles(args)
	case "ruby":
		return rubyRequires(args)
	case "perl":
		return perlModules(args)
	case "nox":
		return []ToolFile{{Path: "noxfile.py", Lang: "python"}}
	case "uv":
		if len(args) > 1 && args[0] == "run" {
			if o := Operands(args[1:]); len(o) > 0 && strings.HasSuffix(o[0], ".py") {
				return []ToolFile{{Path: o[0], Lang: "python"}} // uv run x.py runs it with python
			}
		}
	case "nodemon":
		if o := Operands(args); len(o) > 0 {
			return []ToolFile{{Path: o[0], Lang: "js"}}
		}
	case "deno":
		if len(args) > 1 && args[0] == "run" {
			if o := Operands(args[1:]); len(o) > 0 {
				return []ToolFile{{Path: o[0], Lang: "js"}}
			}
		}
	case "python":
		for i, a := range args {
			if a == "-m" && i+1 < len(args) {
				return append(pythonModule(args[i+1]), pyModuleScript(args[i+1], args[i+2:])...)
			}
			if strings.HasPrefix(a, "-m") && len(a) > 2 {
				return append(pythonModule(a[2:]), pyModuleScript(a[2:], args[i+1:])...)
			}
			if a == "-c" && i+1 < len(args) {
				return pythonImports(args[i+1]) // python -c 'import helper' runs helper.py
			}
			if !strings.HasPrefix(a, "-") {
				break
			}
		}
	case "node":
		var pre []ToolFile
		for i, a := range args {
			if (a == "-r" || a == "--require" || a == "--import") && i+1 < len(args) && strings.HasPrefix(args[i+1], ".") {
				pre = append(pre, jsRequires("require('"+args[i+1]+"')")...) // node -r ./x.js: loaded first
			}
		}
		if len(pre) > 0 {
			return pre
		}
		for i, a := range args {
			if (a == "-e" || a == "--eval" || a == "-p" || a == "--print") && i+1 < len(args) {
				return jsRequires(args[i+1]) // node -e "require('./x')" runs x.js
			}
			if !strings.HasPrefix(a, "-") {
				break
			}
		}
	case "pip":
		if len(args) > 0 && args[0] == "install" {
			for _, a := range args[1:] {
				if a == "." || a == "./" {
					return []ToolFile{{Path: "setup.py", Lang: "python"}}
				}
			}
		}
	case "go":
		return goToolFiles(args) // source.go
	case "java":
		return javaToolFiles(args)
	case "tsx":
		if o := Operands(args); len(o) > 0 {
			return []ToolFile{{Path: o[0], Lang: "js"}}
		}
	case "npx":
		if o := Operands(args); len(o) > 1 && (o[0] == "tsx" || o[0] == "ts-node") {
			return []ToolFile{{Path: o[1], Lang: "js"}}
		}
	case "jupyter":
		if len(args) > 0 && (args[0] == "execute" || args[0] == "nbconvert" && hasWord(args, "--execute", "--to=notebook", "--inplace")) {
			var out []ToolFile
			for _, a := range Operands(args[1:]) {
				if strings.HasSuffix(a, ".ipynb") {
					out = append(out, ToolFile{Path: a, Lang: LangNotebook})
				}
			}
			return out
		}
	case "papermill":
		if o := Operands(args); len(o) > 0 {
			return []ToolFile{{Path: o[0], Lang: LangNotebook}}
		}
	case "just":
		return []ToolFile{{Path: "justfile", Lang: LangJustfile}, {Path: "Justfile", Lang: LangJustfile}, {Path: ".justfile", Lang: LangJustfile}}
	case "pre-commit":
		if len(args) == 0 || args[0] == "run" || args[0] == "try-repo" {
			return []ToolFile{{Path: ".pre-commit-config.yaml", Lang: LangPreCommit}}
		}
	case "powershell": // pwsh
		for i, a := range args {
			if (strings.EqualFold(a, "-File") || strings.EqualFold(a, "-f")) && i+1 < len(args) {
				return []ToolFile{{Path: args[i+1], Lang: LangPwsh}}
			}
		}
	}
	return nil
}

// pyOperands are the .py files named on a test runner's line.
func pyOperands(args []string) []ToolFile {
	var out []ToolFile
	for _, a := range Operands(args) {
		if p, _, _ := strings.Cut(a, "::"); strings.HasSuffix(p, ".py") {
			out = append(out, ToolFile{Path: p, Lang: "python"})
		}
	}
	return out
}

// cargoFiles: every build compiles and runs build.rs first; run, test and
// bench then run the crate's own code.
func cargoFiles(args []string) []ToolFile {
	o := Operands(args)
	if len(o) == 0 {
		return nil
	}
	src := func(p string) ToolFile { return ToolFile{Path: p, Lang: LangSource} }
	switch o[0] {
	case "build", "b", "check", "c", "clippy", "doc", "install":
		return []ToolFile{src("build.rs")}
	case "run", "r":
		return []ToolFile{src("build.rs"), src("src/main.rs")}
	case "test", "t", "bench":
		return []ToolFile{src("build.rs"), src("src/main.rs"), src("src/lib.rs")}
	}
	return nil
}

// rubyRequires: ruby -r./x (and -r x with -I DIR) loads x.rb before the
// script; loading a file runs it.
func rubyRequires(args []string) []ToolFile {
	dirs := includeDirs(args, "-I")
	var out []ToolFile
	for i, a := range args {
		r := ""
		switch {
		case a == "-r" && i+1 < len(args):
			r = args[i+1]
		case strings.HasPrefix(a, "-r") && len(a) > 2:
			r = a[2:]
		default:
			continue
		}
		if !strings.HasSuffix(r, ".rb") {
			r += ".rb"
		}
		if strings.HasPrefix(r, "./") || strings.HasPrefix(r, "../") || strings.HasPrefix(r, "/") {
			out = append(out, ToolFile{Path: r, Lang: "ruby"})
			continue
		}
		for _, d := range dirs {
			out = append(out, ToolFile{Path: path.Join(d, r), Lang: "ruby"})
		}
	}
	return out
}

// perlModules: perl -Mx / -mx with -I DIR loads DIR/x.pm; loading runs it.
func perlModules(args []string) []ToolFile {
	dirs := includeDirs(args, "-I")
	var out []ToolFile
	for _, a := range args {
		if len(a) < 3 || (!strings.HasPrefix(a, "-M") && !strings.HasPrefix(a, "-m")) {
			continue
		}
		m, _, _ := strings.Cut(strings.TrimPrefix(a[2:], "-"), "=")
		m = strings.ReplaceAll(m, "::", "/") + ".pm"
		for _, d := range dirs {
			out = append(out, ToolFile{Path: path.Join(d, m), Lang: "perl"})
		}
	}
	return out
}

// includeDirs are the directories of -I DIR / -IDIR options.
func includeDirs(args []string, opt string) []string {
	var out []string
	for i, a := range args {
		switch {
		case a == opt && i+1 < len(args):
			out = append(out, args[i+1])
		case strings.HasPrefix(a, opt) && len(a) > len(opt):
			out = append(out, a[len(opt):])
		}
	}
	return out
}

var conftests = []ToolFile{{Path: "conftest.py", Lang: "python"}, {Path: "tests/conftest.py", Lang: "python"},
	{Path: "test/conftest.py", Lang: "python"}}

var (
	pyImport  = lazy(`(?m)^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))`)
	jsRequire = lazy(`(?:require|import)\s*\(\s*['"](\.{1,2}/[^'"]+)['"]`)
	jsPackage = lazy(`(?:require|import)\s*\(\s*['"]([a-z@][\w.@-]*)['"]`)
)

// pythonImports are the project files inline python code imports (import
// helper, from pkg.mod import x: helper.py, pkg/mod.py or its package's
// __init__.py); importing a module runs it.
func pythonImports(code string) []ToolFile {
	var out []ToolFile
	for _, m := range pyImport().FindAllStringSubmatch(code, 8) {
		names := []string{m[1]}
		if m[1] == "" {
			names = strings.Split(m[2], ",")
		}
		for _, n := range names {
			f := strings.Fields(n) // import x as y; "import  " names nothing
			if len(f) == 0 || stdlibModules[f[0]] {
				continue
			}
			n = f[0]
			p := strings.ReplaceAll(n, ".", "/")
			out = append(out, ToolFile{Path: p + ".py", Lang: "python"}, ToolFile{Path: p + "/__init__.py", Lang: "python"})
			// installed or vendored below the directory (.venv/lib/python3.12/
			// site-packages/requests/__init__.py): a pattern (treerun.go)
			out = append(out, ToolFile{Path: "**/" + p + ".py", Lang: "python"}, ToolFile{Path: "**/" + p + "/__init__.py", Lang: "python"})
		}
	}
	return out
}

// jsRequires are the project files inline js code requires or imports by
// a relative path (require('./x'): x, x.js, x/index.js).
func jsRequires(code string) []ToolFile {
	var out []ToolFile
	for _, m := range jsRequire().FindAllStringSubmatch(code, 8) {
		p := m[1]
		out = append(out, ToolFile{Path: p, Lang: "js"})
		if !strings.HasSuffix(p, ".js") && !strings.HasSuffix(p, ".mjs") && !strings.HasSuffix(p, ".cjs") {
			out = append(out, ToolFile{Path: p + ".js", Lang: "js"}, ToolFile{Path: p + "/index.js", Lang: "js"})
		}
	}
	for _, m := range jsPackage().FindAllStringSubmatch(code, 8) {
		// require('lodash'): node_modules/lodash/index.js, there or above
		out = append(out, ToolFile{Path: "node_modules/" + m[1] + "/index.js", Lang: "js"}, ToolFile{Path: "**/" + m[1] + "/index.js", Lang: "js"})
	}
	return out
}

// pyScriptModules are stdlib modules that run the script named after
// them (python -m pdb x.py, -m cProfile, -m trace --count x.py, -m
// doctest x.py imports it; coverage run x.py).
var pyScriptModules = map[string]bool{"pdb": true, "cProfile": true, "profile": true, "trace": true, "doctest": true,
	"coverage": true, "runpy": true}

// pyModuleScript is the .py file such a module runs.
func pyModuleScript(m string, rest []string) []ToolFile {
	if !pyScriptModules[m] {
		return nil
	}
	for _, o := range Operands(rest) {
		if strings.HasSuffix(o, ".py") {
			return []ToolFile{{Path: o, Lang: "python"}}
		}
	}
	return nil
}

func pythonModule(m string) []ToolFile {
	if m == "pytest" || m == "py.test" {
		return conftests
	}
	if stdlibModules[m] || strings.HasPrefix(m, "-") {
		return nil
	}
	p := strings.ReplaceAll(m, ".", "/")
	return []ToolFile{{Path: p + ".py", Lang: "python"}, {Path: p + "/__main__.py", Lang: "python"}}
}

// FileLang is the language a file of this name is run in when a
// toolchain runs it, for files the extension does not say: a justfile,
// a pre-commit configuration, a notebook, a PowerShell or TypeScript
// script; ok false for the rest.
func FileLang(base string) (string, bool) {
	switch {
	case base == "justfile" || base == "Justfile" || base == ".justfile":
		return LangJustfile, true
	case base == ".pre-commit-config.yaml":
		return LangPreCommit, true
	case strings.HasSuffix(base, ".ipynb"):
		return LangNotebook, true
	case strings.HasSuffix(base, ".ps1"):
		return LangPwsh, true
	case sourceExts[path.Ext(base)]:
		return LangSource, true // source.go
	case strings.HasSuffix(base, ".ts") || strings.HasSuffix(base, ".mts") || strings.HasSuffix(base, ".cts") || strings.HasSuffix(base, ".tsx"):
		return "js", true
	}
	if lang, _, ok := projectFileLang(base); ok {
		return lang, true // CMakeLists.txt, a Rakefile, a Taskfile (projectfiles.go)
	}
	if embeddedExts[path.Ext(base)] {
		return LangEmbedded, true // x.R, x.jl, x.awk: no package reads them
	}
	return "", false
}

// FileText turns the text of a file in one of the languages above into
// code of a language the judge reads: a notebook's code cells (python,
// with its ! and %%bash lines as shell), a justfile's recipe lines, the
// entries of pre-commit's local hooks, a PowerShell script as pwsh
// -Command text. lang "" is the shell.
func FileText(lang, text string) (string, string) {
	switch lang {
	case LangNotebook:
		return notebookShell(text), ""
	case LangJustfile:
		var b strings.Builder
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
				b.WriteString(strings.TrimLeft(strings.TrimSpace(line), "@-") + "\n")
			}
		}
		return b.String(), ""
	case LangPreCommit:
		var b strings.Builder
		for _, line := range strings.Split(text, "\n") {
			t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
			if v, ok := strings.CutPrefix(t, "entry:"); ok {
				b.WriteString(strings.Trim(strings.TrimSpace(v), `"'`) + "\n")
			}
		}
		return b.String(), ""
	case LangPwsh:
		return "pwsh -Command " + shellQuote(text), ""
	case LangSource:
		return SourceShell(text), ""
	case LangEmbedded:
		// read by parse.EmbeddedShell where the session wrote the text; a
		// project's own file of a language no package reads is left as before
		return "", ""
	}
	return text, lang
}

// notebookShell is a notebook's code as shell text: each python cell run
// by python3 -c, each !line and %%bash/%%sh cell as shell.
func notebookShell(text string) string {
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if json.Unmarshal([]byte(text), &nb) != nil {
		return ""
	}
	var b strings.Builder
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		var src string
		var lines []string
		if json.Unmarshal(c.Source, &lines) == nil {
			src = strings.Join(lines, "")
		} else if json.Unmarshal(c.Source, &src) != nil {
			continue
		}
		b.WriteString(CellShell(src))
	}
	return b.String()
}

// CellShell is the shell text that runs one code cell of a notebook (or
// what IPython runs of its -c code): a %%bash/%%sh cell as shell, each
// !line as shell, the rest by python3 -c; %magics are left out.
func CellShell(src string) string {
	var b strings.Builder
	for _, m := range []string{"%%bash", "%%sh"} {
		if rest, ok := strings.CutPrefix(src, m); ok {
			return rest + "\n"
		}
	}
	var py []string
	for _, line := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "!") {
			b.WriteString(t[1:] + "\n")
		} else if !strings.HasPrefix(t, "%") {
			py = append(py, line)
		}
	}
	if len(py) > 0 {
		b.WriteString("python3 -c " + shellQuote(strings.Join(py, "\n")) + "\n")
	}
	return b.String()
}

var _ = register(
	&Program{Name: "pytest", Names: []string{"py.test"}, Kind: TaskRunner},
	// TypeScript runners are node: -e/-p CODE, a script, stdin
	&Program{Name: "tsx", Names: []string{"ts-node"}, Kind: Interpreter | TaskRunner, Lang: "js", Inline: "ep", InlineLong: jsInlineLong},
	&Program{Name: "papermill", Kind: Runner},
	&Program{Name: "just", Kind: TaskRunner},
	&Program{Name: "nodemon", Kind: TaskRunner, Opts: S("ewdV", "ext", "watch", "delay", "ignore", "signal").Runs("exec", RunsShell, "x", RunsShell)},
	&Program{Name: "nox", Kind: TaskRunner},
	&Program{Name: "pre-commit", Kind: TaskRunner},
)

// MakeIncludes are the files a makefile's include, -include and sinclude
// lines name (static words only).
func MakeIncludes(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || (f[0] != "include" && f[0] != "-include" && f[0] != "sinclude") {
			continue
		}
		for _, w := range f[1:] {
			if !strings.ContainsAny(w, "$*?[") && len(out) < 8 {
				out = append(out, w)
			}
		}
	}
	return out
}
