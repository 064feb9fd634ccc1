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
var loadedAnywhere = []string{"/node_modules/", "/site-packages/", "/dist-packages/", "/vendor/bundle/", "/.bundle/ruby/"}

// loadedUnderHome are such places below home (prefixes of the path below it).
var loadedUnderHome = []string{
	".m2/repository/", ".gradle/caches/", ".gradle/wrapper/dists/", ".ivy2/", ".sbt/boot/", ".cargo/registry/",
	".cargo/git/", "go/pkg/mod/", ".cache/pre-commit/", ".cache/go-build/", ".cache/pypoetry/virtualenvs/",
	".pyenv/versions/", ".rbenv/versions/", ".nvm/versions/", ".rustup/toolchains/", ".sdkman/candidates/",
	".local/share/mise/installs/", ".asdf/installs/", ".local/share/fnm/node-versions/", ".volta/tools/",
	".local/share/virtualenvs/", ".virtualenvs/", ".local/share/pypoetry/", ".bun/install/", ".npm/_npx/",
	".nuget/packages/", ".gem/", ".local/share/gem/", ".deno/", ".local/share/uv/",
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
