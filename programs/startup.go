package programs

import "strings"

// Files that run on their own: a shell's startup files run its lines at
// every login or new terminal; a cron table runs its lines on schedule.
// What such a file holds is judged as the commands it will run.

// startupFiles are the startup files of shells, relative to home.
var startupFiles = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true, ".profile": true,
	".zshrc": true, ".zshenv": true, ".zprofile": true, ".zlogin": true, ".zlogout": true,
	".kshrc": true, ".mkshrc": true, ".cshrc": true, ".tcshrc": true, ".login": true,
	".config/fish/config.fish": true,
}

// StartupFile reports a shell startup file: rel is the path below home
// ("" when p is not under home), abs the absolute path.
func StartupFile(abs, rel string) bool {
	if rel != "" && (startupFiles[rel] || strings.HasPrefix(rel, ".config/fish/conf.d/")) {
		return true
	}
	return abs == "/etc/profile" || abs == "/etc/bash.bashrc" || abs == "/etc/zshrc" || abs == "/etc/zsh/zshrc" ||
		strings.HasPrefix(abs, "/etc/profile.d/")
}

// CronTable reports a cron table file and whether it is a system one,
// whose lines name the user to run as after the schedule.
func CronTable(abs string) (table, system bool) {
	switch {
	case abs == "/etc/crontab", strings.HasPrefix(abs, "/etc/cron.d/"):
		return true, true
	case strings.HasPrefix(abs, "/var/spool/cron/"):
		return true, false
	}
	return false, false
}

// Places whose code other programs load without being told the file: a
// dependency tree (node_modules, site-packages of a virtual environment
// or an interpreter, a bundle's gems), a package manager's store that
// builds read again (Maven's and Gradle's repositories, cargo's registry
// sources, Go's module cache, pre-commit's hook repositories) and a
// version manager's installed toolchains (every python pyenv runs). A file
// written there runs at the next import, build or start of that tool.
var loadedAnywhere = []string{"/node_modules/", "/site-packages/", "/dist-packages/", "/vendor/bundle/", "/.bundle/ruby/",
	"/__pycache__/"} // python imports a module's cached bytecode in place of its source

// loadedUnderHome are such places below home (prefixes of the path below it).
var loadedUnderHome = []string{
	".m2/repository/", ".gradle/caches/", ".gradle/wrapper/dists/", ".ivy2/", ".sbt/boot/", ".cargo/registry/",
	".cargo/git/", "go/pkg/mod/", ".cache/pre-commit/", ".cache/go-build/", ".cache/pypoetry/virtualenvs/",
	".pyenv/versions/", ".rbenv/versions/", ".nvm/versions/", ".rustup/toolchains/", ".sdkman/candidates/",
	".local/share/mise/installs/", ".asdf/installs/", ".local/share/fnm/node-versions/", ".volta/tools/",
	".local/share/virtualenvs/", ".virtualenvs/", ".local/share/pypoetry/", ".bun/install/", ".npm/_npx/",
	".nuget/packages/", ".gem/", ".local/share/gem/", ".deno/", ".local/share/uv/", ".cache/uv/", ".cache/pip/wheels/",
	".local/share/nvim/lazy/", ".local/share/nvim/site/pack/", "perl5/lib/", ".julia/packages/", ".pub-cache/",
	".cabal/packages/", ".conan2/p/", ".luarocks/",
}

// LoadedCode reports a file (abs; rel its path below home, "" when not
// under home) in a place whose code imports, builds or a toolchain load
// later: what is written there is judged as the code it is.
func LoadedCode(abs, rel string) bool {
	for _, s := range loadedAnywhere {
		if strings.Contains(abs, s) {
			return true
		}
	}
	for _, pre := range loadedUnderHome {
		if strings.HasPrefix(rel, pre) {
			return true
		}
	}
	return false
}

// CIExpressions is a CI file's text with its expressions (GitHub's and
// Gitea's ${{ ... }}) spelled as the shell would see what they expand to: an
// expression that hands over the whole secrets context (toJSON(secrets),
// secrets alone) is the environment's every value, $(env); any other is a
// plain word (CI_EXPR: a path below the workspace, a version, a name), so
// that the line around it is still read as the command it is.
func CIExpressions(text string) string {
	if !strings.Contains(text, "${{") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "${{")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.Index(text[i:], "}}")
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		expr := strings.Join(strings.Fields(text[i+3:i+j]), "")
		b.WriteString(text[:i])
		if expr == "secrets" || strings.Contains(expr, "(secrets)") || strings.Contains(expr, "(secrets,") {
			// the runner pastes the values in before the shell reads the
			// line: inside single quotes they are still sent
			line := text[strings.LastIndexByte(text[:i], '\n')+1 : i]
			if strings.Count(line, "'")%2 == 1 {
				b.WriteString(`'"$(env)"'`)
			} else {
				b.WriteString("$(env)")
			}
		} else {
			b.WriteString("CI_EXPR")
		}
		text = text[i+j+2:]
	}
}
