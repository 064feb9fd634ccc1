package programs

import "strings"

// Where an install gets its code. A package manager's install runs code
// the package brings (setup.py, build backends, npm lifecycle scripts,
// build.rs); from the registry the project uses that is the project's own
// dependency graph, but from a URL, a git repository or another index it is
// code from wherever the agent chose, the curl | sh of packages.

// InstallSource reports an install (or a configuration change) that takes
// packages from somewhere other than the default registry, and that
// source: a URL or VCS operand (git+https://..., github:o/r, https://x/p.tgz),
// an index or registry option (pip -i/--index-url/--extra-index-url/
// --find-links, npm --registry, gem --source, cargo --git/--index/
// --registry), or setting the registry (npm config set registry URL, pip
// config set global.index-url URL).
func InstallSource(name string, args []string) (string, bool) {
	if src, ok := codeFetchSource(name, args); ok {
		return src, true
	}
	p := Lookup(name)
	if !p.Is(PkgManager) {
		return "", false
	}
	if len(args) > 3 && args[0] == "config" && args[1] == "set" {
		k := strings.ToLower(args[2])
		if strings.Contains(k, "registry") || strings.Contains(k, "index-url") || strings.Contains(k, "find-links") {
			return args[3], true
		}
	}
	if len(args) == 3 && args[0] == "config" && args[1] == "set" { // npm config set registry=URL
		if k, v, ok := strings.Cut(args[2], "="); ok && strings.Contains(strings.ToLower(k), "registry") {
			return v, true
		}
	}
	ops, ok := p.InstallOperands(args)
	if !ok {
		return "", false
	}
	for _, a := range args {
		opt, val, hasVal := strings.Cut(a, "=")
		switch opt {
		case "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--registry", "--source", "--git", "--index", "--clone-source",
			"--add-source", "--channel", "--default-index":
			if hasVal && !DefaultIndex(val) {
				return val, true
			}
		}
	}
	for i, a := range args[:max(0, len(args)-1)] {
		switch a {
		case "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--registry", "--git", "--index", "--add-source", "--default-index":
			if !DefaultIndex(args[i+1]) {
				return args[i+1], true
			}
		case "--source", "-s":
			if p.Name == "gem" && !DefaultIndex(args[i+1]) {
				return args[i+1], true
			}
		case "-c", "--channel":
			if p.Name == "conda" && strings.Contains(args[i+1], "://") && !DefaultIndex(args[i+1]) {
				return args[i+1], true // conda -c https://x/channel; a channel name is anaconda.org's
			}
		}
	}
	for _, op := range ops {
		if remoteSource(op) {
			return op, true
		}
	}
	return "", false
}

// RemoteSource reports a word that names code by a URL or a repository
// (https://x/tool.py, git+https://..., github:o/r): a command run by that
// name (uv run URL, uvx --from, pipx run URL) is fetched to run.
func RemoteSource(w string) bool { return remoteSource(w) }

// remoteSource reports a package operand that names a URL or a repository.
func remoteSource(op string) bool {
	l := strings.ToLower(op)
	if _, spec, ok := strings.Cut(l, "@"); ok && strings.Contains(spec, "://") {
		l = strings.TrimSpace(spec) // pkg @ https://x/p.whl (PEP 508)
	}
	for _, pre := range []string{"http://", "https://", "ftp://", "git+", "git://", "ssh://", "github:", "gitlab:", "bitbucket:", "gist:"} {
		if strings.HasPrefix(l, pre) {
			return true
		}
	}
	return false
}

// codeFetches are the verbs, by program, that install or run code they
// fetch (a plugin, an extension, a flake, a script); run: the first
// operand is what runs and the words after it are its own arguments
// (npx, uvx, pipx run, deno run/install of a URL: RunsFetched);
// repo: every operand names a repository (gh extension install OWNER/REPO).
var codeFetches = map[string][]struct {
	verb      []string
	run, repo bool
}{
	"gh":       {{verb: []string{"extension", "install"}, repo: true}, {verb: []string{"ext", "install"}, repo: true}},
	"helm":     {{verb: []string{"plugin", "install"}}},
	"asdf":     {{verb: []string{"plugin", "add"}}, {verb: []string{"plugin-add"}}},
	"mise":     {{verb: []string{"plugins", "install"}}, {verb: []string{"plugin", "install"}}, {verb: []string{"plugins", "add"}}, {verb: []string{"plugin", "add"}}},
	"brew":     {{verb: []string{"tap"}}},
	"nix":      {{verb: []string{"run"}, run: true}, {verb: []string{"shell"}}, {verb: []string{"profile", "install"}}, {verb: []string{"profile", "add"}}},
	"uv":       {{verb: []string{"tool", "install"}}},
	"composer": {{verb: []string{"require"}}},
}

// codeFetchSource reports a verb of codeFetches given a URL or repository
// (helm plugin install https://..., nix run github:o/r, uv run --with
// git+https://..., composer --repository='{"type":"vcs","url":...}').
func codeFetchSource(name string, args []string) (string, bool) {
	for _, f := range codeFetches[Canonical(name)] {
		if !sub(args, f.verb...) {
			continue
		}
		for _, a := range args[len(f.verb):] {
			if a == "--" {
				break
			}
			_, val, _ := strings.Cut(a, "=")
			switch {
			case remoteSource(a), strings.HasPrefix(a, "-") && remoteSource(val):
				return a, true
			case strings.HasPrefix(a, "-") && strings.Contains(val, "\"url\"") && strings.Contains(val, "://"):
				return val, true // composer --repository={"type":"vcs","url":"https://..."}
			case f.repo && !strings.HasPrefix(a, "-") && strings.Contains(a, "/"):
				return a, true
			}
			if f.run && !strings.HasPrefix(a, "-") {
				break // the rest are the arguments of what runs
			}
		}
	}
	return "", false
}
