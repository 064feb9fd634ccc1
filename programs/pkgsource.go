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
		case "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--registry", "--source", "--git", "--index", "--clone-source":
			if hasVal {
				return val, true
			}
		}
	}
	for i, a := range args[:max(0, len(args)-1)] {
		switch a {
		case "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--registry", "--git", "--index":
			return args[i+1], true
		case "--source", "-s":
			if p.Name == "gem" {
				return args[i+1], true
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
