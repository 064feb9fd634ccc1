package programs

import (
	"path"
	"strings"
)

// Project files runners read and run (issue 19, provenance): a build or
// test runner loads its configuration as code (vite.config.js, a
// Rakefile, build.gradle), or runs the commands it lists (a Taskfile's
// cmds, tox's commands, a Procfile). runnerFiles is the one table of which
// runner reads which files; ToolFiles returns them, and FileLang says in
// which language a file of that name is judged when the session writes it
// (LangEmbedded: by the shell strings it embeds, parse.EmbeddedShell).
// Programs that run a script of a language no package reads (awk -f, sed
// -f, vim -S, emacs -l, gdb -x, cmake -P; the interpreters' own scripts,
// Rscript x.R, julia x.jl, are parse's interpreter reading) run the file
// they are given: scriptOperand says which.

// LangEmbedded is the language of a file judged by the shell commands its
// text embeds (string literals, command lines; parse.EmbeddedShell): code
// of a language no package here reads, and configuration whose strings a
// runner hands to a shell.
const LangEmbedded = "embedded"

// runnerFiles: a runner (canonical name, or as npx runs it), the
// subcommands that read the files (none: every one but help and version),
// the files, their language and whether their strings are commands too
// (EmbedsShell: a Rakefile's sh '..', invoke's c.run('..')).
type runnerFiles struct {
	runners []string
	subs    []string
	files   []string
	lang    string
	embeds  bool
}

// withExts is base.EXT for each extension.
func withExts(base string, exts ...string) []string {
	out := make([]string, len(exts))
	for i, e := range exts {
		out[i] = base + "." + e
	}
	return out
}

var jsConfigExts = []string{"js", "mjs", "cjs", "ts", "mts"}

var runnerTable = []runnerFiles{
	{runners: []string{"vite"}, files: withExts("vite.config", jsConfigExts...), lang: "js"},
	{runners: []string{"vitest"}, files: append(withExts("vitest.config", jsConfigExts...), withExts("vite.config", jsConfigExts...)...), lang: "js"},
	{runners: []string{"jest"}, files: withExts("jest.config", jsConfigExts...), lang: "js"},
	{runners: []string{"eslint"}, files: append(withExts("eslint.config", jsConfigExts...), ".eslintrc.js", ".eslintrc.cjs"), lang: "js"},
	{runners: []string{"webpack", "webpack-cli"}, files: withExts("webpack.config", jsConfigExts...), lang: "js"},
	{runners: []string{"babel"}, files: append(withExts("babel.config", jsConfigExts...), ".babelrc.js"), lang: "js"},
	{runners: []string{"next"}, files: withExts("next.config", jsConfigExts...), lang: "js"},
	{runners: []string{"playwright"}, files: withExts("playwright.config", jsConfigExts...), lang: "js"},
	{runners: []string{"tailwindcss", "tailwind"}, files: withExts("tailwind.config", jsConfigExts...), lang: "js"},
	{runners: []string{"rollup"}, files: withExts("rollup.config", jsConfigExts...), lang: "js"},
	{runners: []string{"grunt"}, files: []string{"Gruntfile.js", "gruntfile.js"}, lang: "js"},
	{runners: []string{"gulp"}, files: []string{"gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts"}, lang: "js"},
	{runners: []string{"mocha"}, files: []string{".mocharc.js", ".mocharc.cjs"}, lang: "js"},
	{runners: []string{"pm2"}, subs: []string{"start", "restart", "reload"}, files: []string{"ecosystem.config.js", "ecosystem.config.cjs"}, lang: "js"},
	{runners: []string{"invoke", "inv"}, files: []string{"tasks.py"}, lang: "python", embeds: true},
	{runners: []string{"fab"}, files: []string{"fabfile.py"}, lang: "python", embeds: true},
	{runners: []string{"doit"}, files: []string{"dodo.py"}, lang: "python", embeds: true},
	{runners: []string{"rails", "rake"}, files: []string{"Rakefile", "rakefile", "Rakefile.rb"}, lang: "ruby", embeds: true},
	{runners: []string{"bundle"}, files: []string{"Gemfile"}, lang: "ruby"},
	{runners: []string{"brew"}, subs: []string{"bundle"}, files: []string{"Brewfile"}, lang: "ruby"},
	{runners: []string{"vagrant"}, files: []string{"Vagrantfile"}, lang: "ruby", embeds: true},
	{runners: []string{"task", "go-task"}, files: []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"}, lang: LangEmbedded},
	{runners: []string{"tox"}, files: []string{"tox.ini"}, lang: LangEmbedded},
	{runners: []string{"poe"}, files: []string{"pyproject.toml"}, lang: LangEmbedded},
	{runners: []string{"pixi"}, subs: []string{"run"}, files: []string{"pyproject.toml", "pixi.toml"}, lang: LangEmbedded}, // hatch run, pdm run
	{runners: []string{"deno"}, subs: []string{"task"}, files: []string{"deno.json", "deno.jsonc"}, lang: LangEmbedded},
	{runners: []string{"composer"}, files: []string{"composer.json"}, lang: LangEmbedded},
	{runners: []string{"foreman", "honcho", "overmind", "hivemind"}, files: []string{"Procfile"}, lang: LangEmbedded},
	{runners: []string{"nodemon"}, files: []string{"nodemon.json"}, lang: LangEmbedded},
	{runners: []string{"nx"}, files: []string{"project.json", "nx.json"}, lang: LangEmbedded},
	{runners: []string{"devcontainer"}, subs: []string{"up", "build", "run-user-commands", "exec"}, files: []string{".devcontainer/devcontainer.json", ".devcontainer.json"}, lang: LangEmbedded},
	{runners: []string{"docker-compose", "docker compose"}, subs: []string{"up", "run", "create", "start", "restart", "build"},
		files: []string{"docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"}, lang: LangEmbedded},
	{runners: []string{"cmake"}, files: []string{"CMakeLists.txt"}, lang: LangEmbedded},
	{runners: []string{"meson"}, files: []string{"meson.build"}, lang: LangEmbedded},
	{runners: []string{"gradle", "gradlew"}, files: []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"}, lang: LangEmbedded},
	{runners: []string{"ninja"}, files: []string{"build.ninja"}, lang: LangEmbedded},
	{runners: []string{"tilt"}, files: []string{"Tiltfile"}, lang: LangEmbedded},
	{runners: []string{"bazel", "bazelisk"}, files: []string{"BUILD.bazel", "BUILD", "WORKSPACE", "MODULE.bazel"}, lang: LangEmbedded},
	{runners: []string{"nix-shell"}, files: []string{"shell.nix", "default.nix"}, lang: LangEmbedded},
	{runners: []string{"scons"}, files: []string{"SConstruct", "Sconstruct", "sconstruct", "SConscript"}, lang: "python", embeds: true},
	{runners: []string{"devbox"}, subs: []string{"run", "shell", "services"}, files: []string{"devbox.json"}, lang: LangEmbedded},
	{runners: []string{"dotnet", "msbuild"}, files: []string{"Directory.Build.props", "Directory.Build.targets"}, lang: LangEmbedded},
	{runners: []string{"nix"}, subs: []string{"develop", "build", "run", "shell"}, files: []string{"flake.nix"}, lang: LangEmbedded},
	// configuration a runner reads at start whose settings run code
	// (cargo's runner and rustc-wrapper, pylint's init-hook, pnpm's hooks,
	// the hooks lefthook and a local GitLab runner run)
	{runners: []string{"cargo"}, subs: []string{"build", "b", "check", "c", "run", "r", "test", "t", "bench", "clippy", "install", "doc"},
		files: []string{".cargo/config.toml", ".cargo/config"}, lang: LangEmbedded},
	{runners: []string{"pylint"}, files: []string{".pylintrc", "pylintrc"}, lang: LangEmbedded},
	{runners: []string{"pnpm"}, subs: []string{"install", "i", "add", "update", "up", "rebuild"}, files: []string{".pnpmfile.cjs", ".pnpmfile.mjs"}, lang: "js"},
	{runners: []string{"lefthook"}, subs: []string{"run", "install"}, files: []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", "lefthook-local.yml"}, lang: LangEmbedded},
	{runners: []string{"gitlab-runner"}, subs: []string{"exec"}, files: []string{".gitlab-ci.yml"}, lang: LangEmbedded},
}

// embeddedExts are the extensions of code in languages no package reads,
// run by their interpreters (scriptOperand).
var embeddedExts = map[string]bool{".R": true, ".r": true, ".jl": true, ".tcl": true, ".exp": true, ".lua": true,
	".awk": true, ".sed": true, ".vim": true, ".el": true, ".gdb": true, ".cmake": true, ".kts": true,
	".bats": true, ".desktop": true, ".nix": true, ".gradle": true, ".groovy": true, ".swift": true}

// scriptOperand: the options whose value is the script a program runs,
// for programs that are no interpreter of the model.
var scriptOperand = map[string][]string{
	"kotlinc": {"-script"},
	"awk":     {"-f", "--file"}, "sed": {"-f", "--file"},
	"vim":   {"-S", "-u", "--cmd-file"}, // nvim, vi, ex; emacs -l has its own case
	"gdb":   {"-x", "--command", "-command"},
	"cmake": {"-P"},
	"ssh":   {"-F"}, "scp": {"-F"}, "sftp": {"-F"}, // ProxyCommand, LocalCommand, Match exec
}

// ProjectFiles are the project files a runner (name with args) reads as
// code: runnerTable's, and the script an interpreter of a language no
// package reads runs.
func ProjectFiles(name string, args []string) []ToolFile {
	canon := Canon(name)
	ops := Operands(args)
	switch canon {
	case "npx": // bunx: the package's binary with the rest
		if len(ops) > 0 {
			return packageRun(ops[0], argsAfter(args, ops[0]))
		}
		return nil
	case "npm": // pnpm exec X, yarn exec X, npm exec X
		if len(ops) > 1 && (ops[0] == "exec" || ops[0] == "dlx" || ops[0] == "x") {
			return packageRun(ops[1], argsAfter(args, ops[1]))
		}
		if baseOf(name) != "pnpm" {
			return nil
		}
		// pnpm's install loads .pnpmfile.cjs (runnerTable)
	case "docker":
		if len(ops) > 0 && ops[0] == "compose" {
			canon, ops = "docker compose", ops[1:]
		}
	}
	if hasWord(args, "--help", "-h", "--version", "-V", "version", "help") {
		return nil
	}
	if out := interpScript(name, canon, args, ops); out != nil {
		return out
	}
	if out := scriptRunner(canon, args, ops); out != nil {
		return out
	}
	var out []ToolFile
	for _, r := range runnerTable {
		if !contains(r.runners, canon) && !contains(r.runners, baseOf(name)) {
			continue
		}
		if len(r.subs) > 0 && (len(ops) == 0 || !contains(r.subs, ops[0])) {
			continue
		}
		for _, f := range r.files {
			out = append(out, ToolFile{Path: f, Lang: r.lang})
		}
	}
	return out
}

// interpScript is the script of a language no package reads that a
// program that is no interpreter of the model runs (nil: none named).
func interpScript(name, canon string, args, ops []string) []ToolFile {
	switch {
	case canon == "vim" && strings.HasPrefix(baseOf(name), "emacs"):
		for i, a := range args {
			if (a == "-l" || a == "--load" || a == "--script" || a == "-script") && i+1 < len(args) {
				return []ToolFile{{Path: args[i+1], Lang: LangEmbedded}}
			}
			if v, ok := strings.CutPrefix(a, "--load="); ok {
				return []ToolFile{{Path: v, Lang: LangEmbedded}}
			}
		}
		return nil
	case baseOf(name) == "ansible-playbook": // its plays' shell, command and script tasks
		var out []ToolFile
		for _, o := range ops {
			if strings.HasSuffix(o, ".yml") || strings.HasSuffix(o, ".yaml") {
				out = append(out, ToolFile{Path: o, Lang: LangEmbedded})
			}
		}
		return out
	case canon == "trash" && baseOf(name) == "gio": // gio launch F.desktop
		if len(ops) > 1 && ops[0] == "launch" {
			return []ToolFile{{Path: ops[1], Lang: LangEmbedded}}
		}
		return nil
	}
	opts, ok := scriptOperand[canon]
	if !ok {
		opts = scriptOperand[baseOf(name)]
	}
	for i, a := range args {
		for _, o := range opts {
			if a == o && i+1 < len(args) {
				return []ToolFile{{Path: args[i+1], Lang: LangEmbedded}}
			}
			if v, ok := strings.CutPrefix(a, o+"="); ok && strings.HasPrefix(o, "--") {
				return []ToolFile{{Path: v, Lang: LangEmbedded}}
			}
		}
	}
	return nil
}

// packageRun is what npx PKG ARGS (pnpm exec, npm exec) runs: a file by
// path, or PKG's own files (ToolFiles), and through a launcher package
// (c8 node x.js, cross-env X=1 node x.js) the command it launches.
func packageRun(pkg string, args []string) []ToolFile {
	if strings.Contains(pkg, "/") {
		return []ToolFile{{Path: pkg}} // pnpm exec ./job.sh
	}
	p := Lookup(pkg)
	if p != nil && p.Launch != nil {
		if l, ok := p.Launch(args); ok && !l.Shell && l.At < len(args) {
			return packageRun(args[l.At], args[l.At+1:])
		}
	}
	if p.Is(Interpreter) && Scanned(p.Lang) {
		if o := Operands(args); len(o) > 0 {
			return append(ToolFiles(pkg, args), ToolFile{Path: o[0], Lang: p.Lang}) // c8 node x.js
		}
	}
	return ToolFiles(pkg, args)
}

// argsAfter are the words of args after the first that is w.
func argsAfter(args []string, w string) []string {
	for i, a := range args {
		if a == w {
			return args[i+1:]
		}
	}
	return nil
}

// commandFile is the file a command line given as text runs by path
// (nodemon --exec ./job.sh, concurrently './a.sh'): its first word.
func commandFile(text string) []ToolFile {
	f := strings.Fields(text)
	if len(f) == 0 || !strings.Contains(f[0], "/") || strings.ContainsAny(f[0], "$`'\"") {
		return nil
	}
	return []ToolFile{{Path: f[0]}}
}

// pyModuleFile is the file a python module or app reference names
// (app, app:app, proj.celery, ./app.py).
func pyModuleFile(ref string) []ToolFile {
	ref, _, _ = strings.Cut(ref, ":")
	if ref == "" || strings.HasPrefix(ref, "-") {
		return nil
	}
	if strings.HasSuffix(ref, ".py") {
		return []ToolFile{{Path: ref, Lang: "python"}}
	}
	p := strings.ReplaceAll(ref, ".", "/")
	return []ToolFile{{Path: p + ".py", Lang: "python"}, {Path: p + "/__init__.py", Lang: "python"}}
}

// scriptRunner is the python or js file a runner that is no interpreter
// runs: a web or task server's app module (flask --app, uvicorn MOD:APP,
// gunicorn, celery -A), streamlit run, pipx run, coverage run, a test
// runner's named files (mocha, jest, vitest), pm2 start, concurrently's
// and nodemon --exec's commands.
func scriptRunner(canon string, args, ops []string) []ToolFile {
	optValue := func(names ...string) string {
		for i, a := range args {
			for _, n := range names {
				if a == n && i+1 < len(args) {
					return args[i+1]
				}
				if v, ok := strings.CutPrefix(a, n+"="); ok && strings.HasPrefix(n, "--") {
					return v
				}
			}
		}
		return ""
	}
	jsFiles := func(words []string) []ToolFile {
		var out []ToolFile
		for _, o := range words {
			switch path.Ext(o) {
			case ".js", ".mjs", ".cjs", ".ts", ".mts", ".jsx", ".tsx":
				out = append(out, ToolFile{Path: o, Lang: "js"})
			case ".py":
				out = append(out, ToolFile{Path: o, Lang: "python"})
			}
		}
		return out
	}
	switch canon {
	case "flask":
		if v := optValue("--app", "-A"); v != "" {
			return pyModuleFile(v)
		}
		return []ToolFile{{Path: "app.py", Lang: "python"}, {Path: "wsgi.py", Lang: "python"}} // flask's defaults
	case "celery":
		return pyModuleFile(optValue("--app", "-A"))
	case "uvicorn", "gunicorn", "hypercorn", "daphne", "waitress-serve":
		if len(ops) > 0 {
			return pyModuleFile(ops[len(ops)-1])
		}
	case "streamlit", "pipx", "coverage":
		if len(ops) > 1 && ops[0] == "run" {
			return jsFiles(ops[1:2])
		}
	case "mocha", "jest", "vitest", "ava", "tap":
		return jsFiles(ops)
	case "pm2":
		if len(ops) > 1 && (ops[0] == "start" || ops[0] == "restart") {
			return jsFiles(ops[1:2])
		}
	case "concurrently":
		var out []ToolFile
		for _, o := range ops {
			out = append(out, commandFile(o)...)
		}
		return out
	case "nodemon":
		return commandFile(optValue("--exec", "-x"))
	}
	return nil
}

// projectFileLang is the language runnerTable gives a file of this base
// name (and whether its strings are commands too).
func projectFileLang(base string) (string, bool, bool) {
	for _, r := range runnerTable {
		for _, f := range r.files {
			if path.Base(f) == base {
				return r.lang, r.embeds, true
			}
		}
	}
	return "", false, false
}

// EmbedsShell reports a file of this base name whose string literals are
// commands its runner runs, whatever its own language does (a Rakefile's
// sh 'CMD', invoke's c.run('CMD'), doit's actions).
func EmbedsShell(base string) bool {
	_, e, _ := projectFileLang(base)
	return e
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
