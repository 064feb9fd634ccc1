package programs

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strings"
)

// Configuration that runs commands (issue 19, persistence points): the
// files programs read at start below home (~/.config/**, ~/.local/share/**,
// a dot-directory), the directories on PATH that toolchains install into,
// and the settings whose value is a program or code to run. What decides a
// write to one of them is what it makes run, not where it lies.

// toolchainBins are directories below home that toolchains put on PATH
// (a path pattern: * is one directory): a file there named like a program
// shadows that program for every shell of the user.
var toolchainBins = []string{
	".cargo/bin", "go/bin", ".npm-global/bin", ".npm-packages/bin", ".bun/bin", ".deno/bin", ".yarn/bin",
	".volta/bin", ".local/share/pnpm", ".nvm/versions/node/*/bin", ".nvm/current/bin",
	".sdkman/candidates/*/current/bin", ".sdkman/candidates/*/*/bin", ".dotnet/tools", ".ghcup/bin",
	".cabal/bin", ".juliaup/bin", ".nix-profile/bin", ".gem/bin", ".rustup/toolchains/*/bin",
	".pyenv/shims", ".rbenv/shims", ".asdf/shims", ".nodenv/shims", ".local/share/mise/shims", ".pyenv/bin",
}

// ToolchainBin reports a directory (below home: rel) that a toolchain puts
// on the user's PATH.
func ToolchainBin(rel string) bool {
	return matchAny(toolchainBins, rel)
}

// matchAny reports a path that one of the patterns matches.
func matchAny(pats []string, p string) bool {
	for _, pat := range pats {
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// projectConfigs are project files (below the project: a path pattern)
// that a program reads as configuration naming code it runs without being
// asked: cargo's runner and rustc-wrapper, npm's script-shell and
// node-options, yarn's yarnPath, pnpm's hooks file, git hooks kept by
// husky and lefthook, mise's hooks and tasks.
var projectConfigs = []string{
	".cargo/config", ".cargo/config.toml", "*/.cargo/config.toml", ".npmrc", ".yarnrc", ".yarnrc.yml",
	".pnpmfile.cjs", ".pnpmfile.mjs", ".husky/*", ".husky/_/*", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml",
	"lefthook.yaml", "mise.toml", ".mise.toml", "mise.local.toml", ".mise/config.toml", ".config/mise.toml",
	".config/mise/config.toml", "uv.toml", "pip.conf", "pip.ini", ".bunfig.toml", "bunfig.toml",
	// git hooks kept in the project (core.hooksPath), pre-commit's hooks
	".githooks/*", "githooks/*", ".pre-commit-config.yaml", ".pre-commit-config.yml",
	// imported into every build or run without being named: MSBuild's
	// directory files, a wrapper's distribution, pylint's init-hook,
	// the editor's settings (the git, python and terminal it starts)
	"Directory.Build.props", "Directory.Build.targets", "*/Directory.Build.props", "*/Directory.Build.targets",
	"Directory.Packages.props", "gradle/wrapper/gradle-wrapper.properties", ".mvn/wrapper/maven-wrapper.properties",
	".pylintrc", "pylintrc", ".vscode/settings.json", "*.code-workspace",
	// an agent's own configuration of the commands it runs after each edit
	".aider.conf.yml", ".aider.conf.yaml",
	// start-up files programs read from the working directory: R's, irb's,
	// gdb's and lldb's, neovim's and vim's exrc
	".Rprofile", ".irbrc", ".gdbinit", ".lldbinit", ".nvim.lua", ".nvimrc", ".exrc",
}

// ProjectConfig reports a project file (rel: its path below the project)
// that a program reads as configuration naming code to run.
func ProjectConfig(rel string) bool {
	return matchAny(projectConfigs, rel)
}

// notConfig are extensions of files below home that no program reads as
// its configuration: notes, logs, data.
var notConfig = map[string]bool{".md": true, ".txt": true, ".log": true, ".csv": true, ".html": true,
	".rst": true, ".org": true, ".pdf": true, ".png": true, ".jpg": true, ".svg": true}

// HomeConfig reports a file below home (rel: its path below home) that a
// program reads as configuration when it starts: under ~/.config or
// ~/.local/share, or in a dot-directory of home (~/.tmux/..., ~/.vscode/
// extensions/...). Whether writing one matters is what it makes run.
func HomeConfig(rel string) bool {
	dir, base := path.Split(rel)
	if dir == "" || notConfig[strings.ToLower(path.Ext(base))] || strings.Contains(strings.ToLower(base), "history") {
		return false
	}
	return strings.HasPrefix(rel, ".") || ToolchainBin(path.Clean(dir)) || strings.HasPrefix(rel, "Library/Application Support/") ||
		strings.HasPrefix(rel, "Library/Preferences/") || strings.HasPrefix(rel, "AppData/") // macOS's and Windows' per-user configuration
}

// codeKeys are the settings of configuration files whose value names a
// program or code to run (the key as spelled in the file, lower case):
// npm's script-shell runs every script and node-options' --require loads a
// file into every node; yarnPath is the yarn that runs; cargo's runner
// and rustc-wrapper wrap every run and build. Git's are GitCodeKey's.
var codeKeys = map[string]bool{
	"script-shell": true, "node-options": true, "yarnpath": true, "runner": true, "rustc-wrapper": true,
	"rustc-workspace-wrapper": true, "rustc": true, "rustdoc": true, "linker": true, "init-module": true,
	"onload-script": true, "goflags": true,
}

// programKeys are settings (the last part of the key, lower case) whose
// value is a program or file another program starts or loads: a
// terminal's shell, an editor's git and interpreter, bun's preload, a
// window manager's exec (also as KEY VALUE: kitty.conf, i3's and sway's config). Their
// everyday values are installed programs and project files; one in a
// scratch directory (ScratchPrograms) is a program planted to run.
var programKeys = map[string]bool{
	"program": true, "shell": true, "path": true, "command": true, "executable": true, "preload": true,
	"interpreter": true, "interpreterpath": true, "defaultinterpreterpath": true, "pythonpath": true,
	"runtimeexecutable": true, "shellpath": true, "require": true, "node-options": true, "script-shell": true,
	"exec": true, "git": true, "editor": true, "browser": true, "viewer": true, "cc": true, "cxx": true,
	"toolchain": true, "binding": true, "exec-once": true, "exec-always": true, "exec_always": true,
	"cafile": true, "cert": true, "sslcainfo": true, // whom TLS trusts: a certificate planted in scratch space
}

// scratchDirs are directories anyone (or any process) writes: what runs
// from there was put there, not installed.
var scratchDirs = []string{"/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/run/user/"}

// ScratchPrograms are the programs and files a configuration text's
// program settings (programKeys) name in a scratch directory.
func ScratchPrograms(text string) []string {
	var out []string
	for _, st := range settings(text) {
		k := st.key
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			k = k[i+1:]
		}
		if !programKeys[k] {
			continue
		}
		for _, w := range listWords(st.value) {
			for _, d := range scratchDirs {
				if strings.HasPrefix(w, d) || strings.HasPrefix(w, "--require="+d) || strings.HasPrefix(w, "--import="+d) {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// listWords are the words of a setting's value, a TOML or JSON list's
// strings unquoted (preload = ["./a.ts", "/tmp/b.ts"]).
func listWords(v string) []string {
	v = strings.Trim(v, "[] ")
	f := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	for i, w := range f {
		f[i] = strings.Trim(w, `"'`)
	}
	return f
}

// guardKeys are settings whose value (lower case) switches a package
// manager's own protection off: npm's unsafe-perm runs install scripts as
// root, ignore-scripts=false runs every dependency's lifecycle scripts
// again, strict-ssl=false (git's sslverify=false, pip's trusted-host)
// takes code from whoever answers.
var guardKeys = map[string]string{"unsafe-perm": "true", "ignore-scripts": "false", "strict-ssl": "false",
	"enablestrictssl": "false", "enablescripts": "true", "gosumdb": "off", "gonosumcheck": "1", "gonosumdb": "*",
	"goinsecure": "*", "ssl_verify": "false", "sslverify": "false", "trusted-host": ""}

// ProtectionOff is the first setting of a configuration text that switches
// a package manager's protection off (guardKeys), as key=value.
func ProtectionOff(text string) (string, bool) {
	for _, st := range settings(text) {
		val := strings.ToLower(strings.TrimSpace(st.value))
		if v, ok := guardKeys[st.key]; ok && (val == v || v == "" && val != "") { // "": any value (trusted-host HOST)
			return st.key + "=" + val, true
		}
	}
	return "", false
}

// HostMounts are the host directories a container engine's own
// configuration (containers.conf's volumes, read by podman and buildah)
// mounts into every container it starts.
func HostMounts(base, text string) []string {
	if base != "containers.conf" {
		return nil
	}
	var out []string
	for _, st := range settings(text) {
		if st.key != "volumes" {
			continue
		}
		for _, w := range listWords(st.value) {
			if src, _, ok := strings.Cut(w, ":"); ok && strings.HasPrefix(src, "/") {
				out = append(out, path.Clean(src))
			}
		}
	}
	return out
}

// codeLangKeys are settings whose value is code of a language, run when
// the program starts: pylint's init-hook is python.
var codeLangKeys = map[string]string{"init-hook": "python"}

// ConfigCode is the code a configuration text's code settings hold, and
// its language (codeLangKeys).
func ConfigCode(text string) (code, lang string) {
	var b strings.Builder
	for _, st := range settings(text) {
		if l, ok := codeLangKeys[st.key]; ok && st.value != "" {
			b.WriteString(st.value + "\n")
			lang = l
		}
	}
	return b.String(), lang
}

// nodeLoads are node's options whose value is a file loaded before the
// program (in NODE_OPTIONS and npm's node-options).
var nodeLoads = map[string]bool{"--require": true, "-r": true, "--import": true, "--loader": true,
	"--experimental-loader": true}

// setting is one key = value (key: value, key=value) line of a
// configuration text, the key lower case and the value unquoted.
type setting struct{ key, value string }

// settings are the key/value lines of a configuration text: ini, TOML,
// YAML and npmrc alike (at most 256).
func settings(text string) []setting {
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") {
		return jsonSettings(t) // VS Code's settings.json, a .code-workspace
	}
	var out []setting
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		i := strings.IndexAny(t, "=:")
		if strings.HasPrefix(t, "@") {
			i = strings.IndexByte(t, '=') // npm's scoped key: @acme:registry=URL
		}
		if sp := strings.IndexAny(t, " \t"); sp > 0 && (i < 0 || sp < i) && programKeys[strings.ToLower(t[:sp])] {
			if rest := strings.TrimSpace(t[sp:]); rest != "" && rest[0] != '=' && rest[0] != ':' {
				// KEY VALUE, the form of kitty.conf and i3's config (shell /bin/zsh, exec CMD)
				out = append(out, setting{strings.ToLower(t[:sp]), rest})
				continue
			}
		}
		if i <= 0 || t[0] == '#' || t[0] == ';' {
			continue
		}
		key := strings.ToLower(strings.Trim(strings.TrimSpace(t[:i]), `"'`))
		v := strings.ReplaceAll(strings.TrimSpace(t[i+1:]), `\:`, ":") // a .properties file escapes its colons
		if len(v) > 1 && (v[0] == '"' || v[0] == '\'') {
			if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
				v = v[1 : 1+end]
			}
		}
		out = append(out, setting{key, v})
		if len(out) >= 256 {
			break
		}
	}
	return out
}

// ConfigPrograms are the programs and files a configuration text's code
// settings name (script-shell=./x.sh, node-options=--require ./h.js,
// yarnPath: .yarn/releases/y.cjs, runner = "/tmp/r.sh").
func ConfigPrograms(text string) []string {
	var out []string
	for _, st := range settings(text) {
		f := strings.Fields(st.value)
		if !codeKeys[st.key] || len(f) == 0 {
			continue
		}
		if st.key == "goflags" {
			// go's -toolexec=P runs P for every tool it starts, -exec=P every test binary
			for _, w := range f {
				if v, ok := strings.CutPrefix(w, "-toolexec="); ok {
					out = append(out, v)
				} else if v, ok := strings.CutPrefix(w, "-exec="); ok {
					out = append(out, v)
				}
			}
			continue
		}
		if st.key != "node-options" {
			out = append(out, f[0])
			continue
		}
		for k, w := range f {
			name, val, eq := strings.Cut(w, "=")
			switch {
			case eq && nodeLoads[name]:
				out = append(out, val)
			case nodeLoads[w] && k+1 < len(f):
				out = append(out, f[k+1])
			}
		}
	}
	return out
}

// sourceKeys are settings whose value is where a package manager takes
// code from: pip's and uv's index, npm's and yarn's registry, Nix's
// substituters and the keys it trusts, Go's proxy.
var sourceKeys = map[string]bool{
	"index-url": true, "extra-index-url": true, "find-links": true, "default-index": true, "registry": true,
	"npmregistryserver": true, "substituters": true, "extra-substituters": true, "trusted-substituters": true,
	"extra-trusted-substituters": true, "goproxy": true, "trusted-public-keys": true, "extra-trusted-public-keys": true,
	"distributionurl": true, "wrapperurl": true, // the Gradle or Maven a wrapper downloads and runs
	"channels": true, "channel_alias": true, "mirror": true, // conda's channels, bundler's mirror
}

// ConfigSource is a package source a configuration text names that is no
// manager's default (DefaultIndex): pip.conf's index-url, an .npmrc
// registry (also a scope's, @acme:registry), nix.conf's substituters.
func ConfigSource(text string) (string, bool) {
	for _, st := range settings(text) {
		k := st.key
		if strings.HasPrefix(k, "@") && strings.HasSuffix(k, ":registry") {
			k = "registry"
		}
		if !sourceKeys[k] {
			continue
		}
		if strings.Contains(k, "public-keys") {
			return st.value, st.value != "" // a key that signs what is installed
		}
		for _, u := range strings.FieldsFunc(st.value, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '|' }) {
			if !DefaultIndex(u) { // GOPROXY=https://proxy.golang.org,direct: a list
				return u, true
			}
		}
	}
	return "", false
}

// dataExts are formats of configuration that hold only data: every string
// in them is a literal or a key's value, so the shell commands a text
// embeds (parse.EmbeddedShell) are all the commands it can name.
var dataExts = map[string]bool{".json": true, ".toml": true, ".conf": true, ".ini": true, ".cfg": true,
	".yml": true, ".yaml": true, ".pth": true, ".properties": true, ".npmrc": true, ".yarnrc": true,
	".desktop": true} // a desktop entry is ini: its Exec= lines are its commands

// DataFormat reports a file of a data format (by name).
func DataFormat(base string) bool { return dataExts[strings.ToLower(path.Ext(base))] }

// editors are the programs whose --install-extension installs code that
// runs in every window of the editor.
var editors = map[string]bool{"code": true, "code-insiders": true, "codium": true, "cursor": true, "windsurf": true}

// ExtensionFile is the file an editor is told to install as an extension
// (code --install-extension ./x.vsix): code from outside its marketplace,
// where a publisher.name id is the marketplace's.
func ExtensionFile(name string, args []string) (string, bool) {
	if !editors[path.Base(name)] {
		return "", false
	}
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--install-extension=")
		if !ok && a == "--install-extension" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok && (strings.HasSuffix(strings.ToLower(v), ".vsix") || strings.Contains(v, "/")) {
			return v, true
		}
	}
	return "", false
}

// jsonSettings are the string leaves of a JSON object as settings, the key
// the dotted path to the leaf, lower case (at most 256; a text that is
// not JSON, comments included, has none).
func jsonSettings(text string) []setting {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil
	}
	var out []setting
	var walk func(key string, v any, depth int)
	walk = func(key string, v any, depth int) {
		if len(out) >= 256 || depth > 16 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) { // sorted: the same text, the same first finding
				e := x[k]
				if key != "" {
					k = key + "." + k
				}
				walk(strings.ToLower(k), e, depth+1)
			}
		case []any:
			for _, e := range x {
				walk(key, e, depth+1)
			}
		case string:
			out = append(out, setting{key, x})
		}
	}
	walk("", v, 0)
	return out
}
