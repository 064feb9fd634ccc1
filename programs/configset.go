package programs

import (
	"path"
	"strings"
)

// ghCommandKeys are gh's settings whose value is a command it runs.
var ghCommandKeys = map[string]bool{"editor": true, "pager": true, "browser": true}

// Settings a tool's own CLI writes into its configuration. Writing the
// file by hand is judged by its content (configcode.go); the same setting
// made by the tool's command (npm config set script-shell X, gh alias set --shell, aws configure set
// credential_process, kubectl config set-credentials --exec-command,
// systemctl --user set-environment) is the same write, and is read here
// into the setting it makes so that judge weighs it the same way.

// ConfigSet is one setting a command writes.
type ConfigSet struct {
	File  string // the configuration it lands in ("~/.npmrc", "package.json")
	Key   string // lower case, as configcode.go's settings spell it
	Value string
	// Code: the value is a command line run later (a package.json script,
	// a gh shell alias, a credential process). Env: the value is an
	// environment variable every later service of the user starts with.
	Code, Env bool
}

// ConfigSets are the settings name with args writes (none for a read).
func ConfigSets(name string, args []string) []ConfigSet {
	switch Canon(name) {
	case "npm", "pnpm", "yarn":
		return npmSets(name, args)
	case "gh":
		// gh alias set --shell NAME CMD: `gh NAME` runs CMD in sh
		o := Parse(args, S("h", "clobber", "host"))
		if len(o.Pos) >= 4 && o.Pos[0] == "alias" && o.Pos[1] == "set" && o.Has('s', "shell") {
			return []ConfigSet{{File: "~/.config/gh/config.yml", Key: "aliases." + o.Pos[2], Value: o.Pos[3], Code: true}}
		}
		// gh config set editor|pager|browser CMD: gh runs CMD later
		if len(o.Pos) >= 4 && o.Pos[0] == "config" && o.Pos[1] == "set" && ghCommandKeys[o.Pos[2]] {
			return []ConfigSet{{File: "~/.config/gh/config.yml", Key: o.Pos[2], Value: o.Pos[3], Code: true}}
		}
	case "aws":
		o := Parse(args, S("", "profile", "region", "output"))
		if len(o.Pos) >= 4 && o.Pos[0] == "configure" && o.Pos[1] == "set" {
			k := strings.ToLower(o.Pos[2])
			if k == "credential_process" || strings.HasSuffix(k, ".credential_process") {
				return []ConfigSet{{File: "~/.aws/config", Key: "credential_process", Value: o.Pos[3], Code: true}}
			}
		}
	case "kubectl":
		// kubectl config set-credentials U --exec-command=C --exec-arg=A...:
		// every later kubectl call for that user runs C A...
		if len(args) >= 2 && args[0] == "config" && args[1] == "set-credentials" {
			var cmd []string
			for _, v := range listOptValues(args, "--exec-command") {
				cmd = append(cmd, shellQuote(v))
			}
			if len(cmd) == 0 {
				return nil
			}
			for _, v := range listOptValues(args, "--exec-arg") {
				cmd = append(cmd, shellQuote(v))
			}
			return []ConfigSet{{File: "~/.kube/config", Key: "exec", Value: strings.Join(cmd, " "), Code: true}}
		}
	case "systemctl", "launchctl", "dbus-update-activation-environment":
		return envSets(name, args)
	case "docker", "podman":
		// docker context create NAME --docker host=URL: every later docker
		// call that uses the context talks to the daemon at URL (builds
		// send it the project, runs mount what it asks for)
		if len(args) >= 3 && args[0] == "context" && (args[1] == "create" || args[1] == "update") {
			for _, v := range listOptValues(args, "--docker") {
				for _, f := range strings.Split(v, ",") {
					if h, ok := strings.CutPrefix(f, "host="); ok {
						return []ConfigSet{{File: "~/.docker/contexts", Key: "docker-host", Value: h}}
					}
				}
			}
		}
	case "go":
		// go env -w K=V...: every later go command of the user reads them
		// (GOFLAGS=-toolexec=P runs P for every tool, CC the compiler cgo
		// starts, GOPROXY where modules come from, GOSUMDB=off unchecked)
		if len(args) >= 2 && args[0] == "env" && (args[1] == "-w" || contains(args, "-w")) {
			var out []ConfigSet
			for _, a := range args[1:] {
				if k, v, ok := strings.Cut(a, "="); ok && !strings.HasPrefix(k, "-") {
					out = append(out, ConfigSet{File: "go env", Key: strings.ToLower(k), Value: v})
				}
			}
			return out
		}
	case "gsettings", "dconf":
		// gsettings set SCHEMA KEY VALUE, dconf write /PATH/KEY VALUE: a
		// desktop's settings (its terminal's exec, a shortcut's command)
		o := Parse(args, S(""))
		var k, v string
		switch {
		case name == "gsettings" && len(o.Pos) >= 4 && o.Pos[0] == "set":
			k, v = o.Pos[2], o.Pos[3]
		case name == "dconf" && len(o.Pos) >= 3 && o.Pos[0] == "write":
			k, v = path.Base(o.Pos[1]), o.Pos[2]
		default:
			return nil
		}
		return []ConfigSet{{File: "dconf", Key: strings.ToLower(k), Value: strings.Trim(v, `'"`)}}
	case "conda", "mamba", "micromamba":
		// conda config --add|--append|--prepend channels URL, --set channel_alias URL
		for i := 0; i+2 < len(args); i++ {
			if args[0] == "config" && (args[i] == "--add" || args[i] == "--append" || args[i] == "--prepend" || args[i] == "--set") {
				return []ConfigSet{{File: "~/.condarc", Key: strings.ToLower(args[i+1]), Value: args[i+2]}}
			}
		}
	case "dotnet":
		// dotnet nuget add source URL: packages of every restore from URL
		o := Parse(args, S("nup", "name", "username", "password", "configfile"))
		if len(o.Pos) >= 4 && o.Pos[0] == "nuget" && o.Pos[1] == "add" && o.Pos[2] == "source" {
			return []ConfigSet{{File: "NuGet.Config", Key: "registry", Value: o.Pos[3]}}
		}
	case "bundle":
		// bundle config [set] [--global|--local] mirror.SOURCE URL
		o := Parse(args, S(""))
		p := o.Pos
		if len(p) > 0 && p[0] == "config" {
			p = p[1:]
			if len(p) > 0 && p[0] == "set" {
				p = p[1:]
			}
			if len(p) >= 2 && strings.HasPrefix(strings.ToLower(p[0]), "mirror.") {
				return []ConfigSet{{File: "~/.bundle/config", Key: "mirror", Value: p[1]}}
			}
		}
	case "husky":
		// husky add|set FILE CMD: the git hook FILE runs CMD
		if len(args) >= 3 && (args[0] == "add" || args[0] == "set") {
			return []ConfigSet{{File: args[1], Key: "hook", Value: args[2], Code: true}}
		}
	case "rustup":
		// rustup toolchain link NAME DIR: rustc and cargo of NAME run from DIR
		if len(args) >= 4 && args[0] == "toolchain" && args[1] == "link" {
			return []ConfigSet{{File: "~/.rustup/settings.toml", Key: "toolchain", Value: args[3]}}
		}
	case "pixi": // pdm is one of its names
		// pdm config pypi.url URL, pypi.NAME.url URL
		if path.Base(name) == "pdm" && len(args) >= 3 && args[0] == "config" && strings.HasPrefix(args[len(args)-2], "pypi.") && strings.HasSuffix(args[len(args)-2], "url") {
			return []ConfigSet{{File: "pdm config", Key: "index-url", Value: args[len(args)-1]}}
		}
	case "gem":
		// gem sources --add URL
		for _, v := range listOptValues(args, "--add", "-a") {
			if len(args) > 0 && args[0] == "sources" {
				return []ConfigSet{{File: "~/.gemrc", Key: "registry", Value: v}}
			}
		}
	case "composer":
		// composer config [-g] repo.packagist composer URL, repositories.NAME vcs URL
		o := Parse(args, S("d", "file", "working-dir"))
		if len(o.Pos) >= 3 && o.Pos[0] == "config" && (strings.HasPrefix(o.Pos[1], "repo") || strings.HasPrefix(o.Pos[1], "repositories")) {
			return []ConfigSet{{File: "composer.json", Key: "registry", Value: o.Pos[len(o.Pos)-1]}}
		}
	case "nix-channel":
		for _, v := range listOptValues(args, "--add") {
			return []ConfigSet{{File: "~/.nix-channels", Key: "substituters", Value: v}}
		}
	case "flatpak":
		o := Parse(args, S("", "title", "comment", "gpg-import", "filter", "collection-id"))
		if len(o.Pos) >= 3 && o.Pos[0] == "remote-add" {
			return []ConfigSet{{File: "flatpak remotes", Key: "registry", Value: o.Pos[2]}}
		}
	case "pip", "pip3":
		// pip config set global.trusted-host HOST (its TLS unchecked); index-url is pipSets' (pkgsource)
		o := Parse(args, S(""))
		if len(o.Pos) >= 4 && o.Pos[0] == "config" && o.Pos[1] == "set" {
			k := strings.ToLower(o.Pos[2])
			if i := strings.LastIndexByte(k, '.'); i >= 0 {
				k = k[i+1:]
			}
			if k == "trusted-host" || k == "cert" {
				return []ConfigSet{{File: "pip.conf", Key: k, Value: o.Pos[3]}}
			}
		}
	case "git":
		// git config [--global] http.sslVerify false: git's TLS unchecked;
		// http.sslCAInfo F: whom it trusts (code settings are gitstate's)
		if sub, rest, _ := GitSplit(args); sub == "config" {
			if k, v, ok := GitConfigSet(rest); ok {
				switch lk := strings.ToLower(k); {
				case lk == "http.sslverify" || strings.HasPrefix(lk, "http.") && strings.HasSuffix(lk, ".sslverify"):
					return []ConfigSet{{File: "git config", Key: "sslverify", Value: v}}
				case lk == "http.sslcainfo":
					return []ConfigSet{{File: "git config", Key: "cafile", Value: v}}
				}
			}
		}
	case "poetry":
		// poetry config repositories.NAME URL: a source packages can come from
		if len(args) >= 3 && args[0] == "config" && strings.HasPrefix(args[1], "repositories.") {
			return []ConfigSet{{File: "poetry config", Key: "index-url", Value: args[2]}}
		}
		// poetry source add NAME URL: the project's packages from URL
		o := Parse(args, S("", "priority"))
		if len(o.Pos) >= 4 && o.Pos[0] == "source" && o.Pos[1] == "add" {
			return []ConfigSet{{File: "pyproject.toml", Key: "index-url", Value: o.Pos[3]}}
		}
	}
	return nil
}

// npmSets: npm|pnpm|yarn config set K V (or K=V), npm set K V (scripts
// set by npm pkg set and set-script are ScriptsSet's, pkg.go). The words after the key are
// read as they are: a value may itself start with a dash
// (node-options '--require ./h.js').
func npmSets(name string, args []string) []ConfigSet {
	file := "~/.npmrc"
	var words []string // the command's words, options before the key left out
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--location" || a == "-L":
			if i+1 < len(args) && args[i+1] == "project" {
				file = ".npmrc"
			}
			i++
		case a == "--location=project":
			file = ".npmrc"
		case strings.HasPrefix(a, "-") && len(words) < 3:
			// an option of npm, not a value
		default:
			words = append(words, a)
		}
	}
	if name == "yarn" {
		file = "~/.yarnrc.yml"
	}
	kv := func(rest []string) []ConfigSet {
		if len(rest) == 0 {
			return nil
		}
		if k, v, ok := strings.Cut(rest[0], "="); ok {
			return []ConfigSet{{File: file, Key: strings.ToLower(k), Value: v}}
		}
		if len(rest) >= 2 {
			return []ConfigSet{{File: file, Key: strings.ToLower(rest[0]), Value: rest[1]}}
		}
		return nil
	}
	p := words
	switch {
	case len(p) >= 2 && p[0] == "config" && p[1] == "set":
		return kv(p[2:])
	case len(p) >= 1 && p[0] == "set" && name == "npm":
		return kv(p[1:])
	}
	return nil
}

// envSets: systemctl --user set-environment K=V..., launchctl setenv K V,
// dbus-update-activation-environment K=V...
func envSets(name string, args []string) []ConfigSet {
	var out []ConfigSet
	add := func(k, v string) {
		out = append(out, ConfigSet{File: "the user's service manager", Key: k, Value: v, Env: true})
	}
	o := Parse(args, S(""))
	switch name {
	case "systemctl":
		if len(o.Pos) < 2 || o.Pos[0] != "set-environment" {
			return nil
		}
		for _, a := range o.Pos[1:] {
			if k, v, ok := strings.Cut(a, "="); ok {
				add(k, v)
			}
		}
	case "launchctl":
		if len(o.Pos) >= 3 && o.Pos[0] == "setenv" {
			add(o.Pos[1], o.Pos[2])
		}
	default:
		for _, a := range o.Pos {
			if k, v, ok := strings.Cut(a, "="); ok {
				add(k, v)
			}
		}
	}
	return out
}
