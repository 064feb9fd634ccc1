package programs

import "strings"

// Environment variables that stand for a program's options, by the
// program's own documentation: DOCKER_HOST=tcp://h docker rm is docker -H
// tcp://h rm, PIP_INDEX_URL=URL pip install x is pip install --index-url
// URL x. One table: EnvOptions turns it into option words for the rules
// that read options, EnvIndex names the package index it points at.

type envOpt struct {
	env string
	// opt is the option the variable stands for; "" when it has none
	// (GOPROXY is go's index and no option spells it).
	opt string
	// index: the value is where packages come from (an index, registry,
	// proxy or channel): EnvIndex.
	index bool
	// words: the value is option words themselves (GOFLAGS, TAR_OPTIONS,
	// MAKEFLAGS): parse reads the code they hold as the program's own
	// (GOFLAGS=-toolexec=CMD is go -toolexec=CMD).
	words bool
}

var envOpts = map[string][]envOpt{
	"docker": {{env: "DOCKER_HOST", opt: "-H"}, {env: "DOCKER_CONTEXT", opt: "--context"}},
	"pip": {{env: "PIP_INDEX_URL", opt: "--index-url", index: true}, {env: "PIP_EXTRA_INDEX_URL", opt: "--extra-index-url", index: true},
		{env: "PIP_FIND_LINKS", opt: "--find-links", index: true}},
	"pipx": {{env: "PIP_INDEX_URL", opt: "--index-url", index: true}},
	"uv": {{env: "UV_INDEX_URL", opt: "--index-url", index: true}, {env: "UV_EXTRA_INDEX_URL", opt: "--extra-index-url", index: true},
		{env: "UV_INDEX", opt: "--index", index: true}, {env: "UV_DEFAULT_INDEX", opt: "--default-index", index: true},
		{env: "UV_FIND_LINKS", opt: "--find-links", index: true}},
	"poetry": {{env: "PIP_INDEX_URL", index: true}},
	"npm": {{env: "npm_config_registry", opt: "--registry", index: true}, {env: "NPM_CONFIG_REGISTRY", opt: "--registry", index: true},
		{env: "YARN_NPM_REGISTRY_SERVER", opt: "--registry", index: true}, {env: "YARN_REGISTRY", opt: "--registry", index: true},
		{env: "COREPACK_NPM_REGISTRY", index: true}},
	"bun":   {{env: "NPM_CONFIG_REGISTRY", opt: "--registry", index: true}, {env: "BUN_CONFIG_REGISTRY", opt: "--registry", index: true}},
	"go":    {{env: "GOPROXY", index: true}, {env: "GOFLAGS", words: true}},
	"tar":   {{env: "TAR_OPTIONS", words: true}},
	"make":  {{env: "MAKEFLAGS", words: true}, {env: "MFLAGS", words: true}, {env: "GNUMAKEFLAGS", words: true}},
	"cargo": {{env: "CARGO_REGISTRY_DEFAULT", index: true}},
	"gem":   {{env: "GEM_SOURCE", opt: "--source", index: true}},
	"conda": {{env: "CONDA_CHANNELS", opt: "--channel", index: true}},
}

// EnvOptions are the option words the assignments in effect stand for
// (get returns one): a rule reading the options then sees the target the
// environment names.
func EnvOptions(name string, get func(string) (string, bool)) []string {
	var o []string
	for _, e := range envOpts[Canonical(name)] {
		v, ok := get(e.env)
		switch {
		case ok && e.words:
			o = append(o, optionWords(v)...)
		case ok && e.opt != "":
			o = append(o, e.opt, v)
		}
	}
	return o
}

// optionWords splits a variable of option words at blanks; an --eval
// (MAKEFLAGS='--eval=TEXT') runs to the end, never cut short at a blank
// inside its text; make's bare letters (MAKEFLAGS=ks) are its flags.
func optionWords(v string) []string {
	var o []string
	rest := ""
	if k := strings.Index(v, "--eval="); k >= 0 {
		v, rest = v[:k], v[k:]
	}
	for _, f := range strings.Fields(v) {
		if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
			f = "-" + f
		}
		o = append(o, f)
	}
	if rest != "" {
		o = append(o, rest)
	}
	return o
}

// EnvIndex reports the package index, registry or proxy the assignments
// in effect point name at (PIP_INDEX_URL, npm_config_registry, GOPROXY,
// ...) when it is not the manager's own default: every command of the
// manager that fetches packages takes their code from there.
func EnvIndex(name string, get func(string) (string, bool)) (string, bool) {
	for _, e := range envOpts[Canonical(name)] {
		v, ok := get(e.env)
		if !ok || !e.index {
			continue
		}
		for _, u := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '|' || r == ' ' }) {
			if !DefaultIndex(u) {
				return v, true
			}
		}
	}
	return "", false
}

// defaultIndexHosts are the registries package managers use unless told
// otherwise.
var defaultIndexHosts = map[string]bool{
	"pypi.org": true, "pypi.python.org": true, "files.pythonhosted.org": true, "registry.npmjs.org": true,
	"registry.yarnpkg.com": true, "proxy.golang.org": true, "sum.golang.org": true, "rubygems.org": true,
	"index.crates.io": true, "crates.io": true, "conda.anaconda.org": true, "repo.anaconda.com": true,
	"api.nuget.org": true, "repo.maven.apache.org": true, "repo1.maven.org": true, "services.gradle.org": true,
	"nixos.org": true, "channels.nixos.org": true, "cache.nixos.org": true, "dl.flathub.org": true, "flathub.org": true,
	"repo.packagist.org": true, "packagist.org": true, "index.rubygems.org": true,
}

// DefaultIndex reports a package source that is a manager's default: a
// URL of a default registry, go's "direct" and "off", a channel name.
func DefaultIndex(u string) bool {
	switch u {
	case "", "direct", "off", "default", "crates-io", "conda-forge", "defaults":
		return true
	}
	if !strings.Contains(u, "://") {
		return !strings.ContainsAny(u, "/.:") // a channel or registry name, not a place
	}
	return defaultIndexHosts[HostOf(u)]
}
