package programs

import (
	"path"
	"strings"
)

// Runners of the project's tree (issue 19, provenance). A test runner, a
// workspace build, a package install from the project, a doc or site
// builder, a local CI runner runs code from files it finds under its
// directory, not only from files named on its line or in runnerTable:
// pytest imports every test module and what they import, `npm run build
// --workspaces` runs each packages/*/package.json's script, `pip install .`
// runs the build backend the project names, `bun test` its preload. The
// model says which runner runs which files of the tree (treeTable); the
// judge asks the session's memory about those files as patterns, and a
// file the session writes leaves its fact under the patterns it matches
// (TreeFacts), so the memory answers a pattern with the verdict of a file
// written there. A pattern is inferred, not exact: the runner may not load
// that file, but the session wrote code there that would be stopped if it
// ran, and the runner runs code from there.
//
// Patterns, relative to the runner's directory: "*.py" a file of the
// directory, "**/*.py" one below it (at any depth), "**/package.json" and
// "**/requests/__init__.py" a file of that name below it, "*" any file of
// the directory (run-parts). An extension names its language: "*.js"
// stands for JavaScript and TypeScript files of every extension (treeExt).

// treeRun: runners (canonical or base name), the subcommands that run the
// tree (none: every one), words of which one must be on the line (none:
// no condition), and the patterns.
type treeRun struct {
	runners []string
	subs    []string
	needs   []string
	globs   []string
}

// inTree is the patterns for files of these extensions in the directory
// and below it.
func inTree(exts ...string) []string {
	var out []string
	for _, e := range exts {
		out = append(out, "*"+e, "**/*"+e)
	}
	return out
}

var (
	pyTree   = inTree(".py")
	jsTree   = inTree(".js")
	rbTree   = inTree(".rb")
	phpTree  = inTree(".php")
	pkgTree  = []string{"**/package.json"} // workspaces, file: dependencies
	workFlag = []string{"--workspaces", "-ws", "--workspace", "-w", "-r", "--recursive", "--filter", "-F", "workspaces", "foreach"}
)

var treeTable = []treeRun{
	// test runners import the test modules they find, and what those import
	{runners: []string{"pytest", "py.test", "unittest", "nose2", "ward"}, globs: pyTree},
	{runners: []string{"tox", "nox"}, globs: pyTree},
	{runners: []string{"jest", "vitest", "mocha", "ava", "tap", "jasmine", "karma", "c8", "nyc"}, globs: jsTree},
	{runners: []string{"playwright", "cypress"}, subs: []string{"test", "run"}, globs: jsTree},
	{runners: []string{"node"}, needs: []string{"--test"}, globs: jsTree},
	{runners: []string{"bun", "deno"}, subs: []string{"test"}, globs: jsTree},
	{runners: []string{"rspec", "minitest", "cucumber"}, globs: rbTree},
	{runners: []string{"rails"}, subs: []string{"test", "spec"}, globs: rbTree},
	{runners: []string{"phpunit", "pest", "paratest", "codecept"}, globs: phpTree},
	// builders and installers of the project run its build scripts and
	// backends (setup.py, hatch_build.py, an in-tree build-backend)
	{runners: []string{"pip"}, subs: []string{"install", "wheel", "download"}, needs: []string{".", "./", "-e", "--editable"}, globs: pyTree},
	{runners: []string{"uv"}, subs: []string{"build", "sync", "run"}, globs: pyTree},
	{runners: []string{"hatch", "pdm", "rye", "poetry", "flit", "maturin"}, subs: []string{"build", "install", "sync", "run", "test", "publish", "develop"}, globs: pyTree},
	{runners: []string{"build"}, globs: pyTree}, // python -m build
	{runners: []string{"sphinx-build", "sphinx-autobuild", "sphinx"}, globs: pyTree},
	{runners: []string{"mkdocs"}, subs: []string{"build", "serve", "gh-deploy"}, globs: pyTree},
	// workspaces: every package's scripts; an install: file: dependencies
	{runners: []string{"npm"}, subs: []string{"install", "i", "ci", "add", "rebuild"}, globs: pkgTree},
	{runners: []string{"npm"}, needs: workFlag, globs: pkgTree},
	{runners: []string{"bun"}, subs: []string{"install", "i", "add"}, globs: pkgTree},
	{runners: []string{"bun"}, needs: []string{"--filter", "-F"}, globs: pkgTree},
	{runners: []string{"turbo", "lerna", "nx", "wireit", "ultra"}, subs: []string{"run", "run-many", "affected", "exec", "build", "test", "lint", "dev"}, globs: pkgTree},
	{runners: []string{"cargo"}, subs: []string{"build", "b", "check", "c", "run", "r", "test", "t", "bench", "clippy", "install"}, globs: []string{"**/build.rs"}},
	{runners: []string{"terraform"}, subs: []string{"plan", "apply", "validate", "refresh", "console", "import", "destroy"}, globs: inTree(".tf")},
	{runners: []string{"dotnet", "msbuild"}, subs: []string{"build", "run", "test", "publish", "pack", "restore", "msbuild"}, globs: inTree(".targets", ".props", ".csproj")},
	{runners: []string{"msbuild"}, globs: inTree(".targets", ".props", ".csproj")},
	// a local CI runner runs the repository's workflows
	{runners: []string{"act"}, globs: []string{".github/workflows/*"}},
}

// treeExt is the extension that names a file's language in a pattern.
func treeExt(base string) string {
	e := path.Ext(base)
	switch e {
	case ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx":
		return ".js"
	case ".pyw":
		return ".py"
	}
	if e == base {
		return "" // .bashrc
	}
	return e
}

// maxTreeDepth bounds the directories above a written file that keep a
// fact for it.
const maxTreeDepth = 12

// TreeFacts are the patterns a file written at p (absolute, clean)
// matches, as the paths the session's memory keeps its fact under: *, *EXT
// in its directory, and **/BASE, **/DIR/BASE, **/*EXT in each directory
// above (up to maxTreeDepth, the root excluded).
func TreeFacts(p string) []string {
	dir, base := path.Dir(p), path.Base(p)
	ext := treeExt(base)
	out := []string{path.Join(dir, "*")}
	if ext != "" {
		out = append(out, path.Join(dir, "*"+ext))
	}
	for a, n := path.Dir(dir), 0; a != "/" && a != "." && n < maxTreeDepth; a, n = path.Dir(a), n+1 {
		out = append(out, path.Join(a, "**", base))
		if ext != "" {
			out = append(out, path.Join(a, "**", "*"+ext))
		}
		if a != path.Dir(dir) {
			// with its directory (requests/__init__.py, lodash/index.js)
			out = append(out, path.Join(a, "**", path.Base(dir), base))
		}
	}
	return out
}

// TreeMatch reports whether the file at p (absolute, clean) is one the
// pattern pat (absolute: TreeFiles' resolved) stands for.
func TreeMatch(pat, p string) bool {
	for _, f := range TreeFacts(p) {
		if f == pat {
			return true
		}
	}
	return false
}

// TreeFiles are the patterns of the project's files a runner runs from its
// tree (treeTable; run-parts DIR: DIR's files; python -m MOD, bundle exec
// CMD, poetry run CMD: CMD's).
func TreeFiles(name string, args []string) []ToolFile {
	canon, base := Canon(name), baseOf(name)
	ops := Operands(args)
	switch {
	case canon == "python":
		for i, a := range args {
			if a == "-m" && i+1 < len(args) {
				return TreeFiles(args[i+1], args[i+2:])
			}
			if !strings.HasPrefix(a, "-") {
				break
			}
		}
		return nil
	case base == "run-parts":
		var out []ToolFile
		for _, o := range ops {
			out = append(out, ToolFile{Path: path.Join(o, "*")})
		}
		return out
	case canon == "bundle" || canon == "pixi" || canon == "uv" || base == "poetry" || base == "pipenv":
		if len(ops) > 1 && (ops[0] == "exec" || ops[0] == "run") {
			if out := TreeFiles(ops[1], argsAfter(args, ops[1])); out != nil {
				return out
			}
		}
	}
	if hasWord(args, "--help", "-h", "--version", "-V", "version", "help") {
		return nil
	}
	var out []ToolFile
	for _, r := range treeTable {
		if !contains(r.runners, canon) && !contains(r.runners, base) {
			continue
		}
		if len(r.subs) > 0 && (len(ops) == 0 || !contains(r.subs, ops[0])) {
			continue
		}
		if len(r.needs) > 0 && !anyWord(args, r.needs) {
			continue
		}
		for _, g := range r.globs {
			out = append(out, ToolFile{Path: g, Lang: treeLang(g)})
		}
	}
	return out
}

// anyWord reports one of ws among args (--filter=x counts as --filter).
func anyWord(args, ws []string) bool {
	for _, a := range args {
		k, _, _ := strings.Cut(a, "=")
		if contains(ws, a) || strings.HasPrefix(a, "--") && contains(ws, k) {
			return true
		}
	}
	return false
}

// treeLang is the language of the files a pattern stands for.
func treeLang(g string) string {
	switch path.Ext(g) {
	case ".py":
		return "python"
	case ".js":
		return "js"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	case ".json":
		return "package.json"
	case ".rs":
		return LangSource
	}
	return LangEmbedded
}

// IsTreePattern reports a path that names files by a pattern
// (TreeFacts, TreeFiles), not one file.
func IsTreePattern(p string) bool {
	b := path.Base(p)
	return b == "*" || strings.HasPrefix(b, "*.") || strings.Contains(p, "/**/") || strings.HasPrefix(p, "**/")
}
