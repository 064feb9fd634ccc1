package programs

import (
	"path"
	"strings"
)

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
	".cabal/packages/", ".conan2/p/", ".luarocks/", ".node_modules/", ".node_libraries/", // node's require looks in these too
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

// Installs says what a command installs to run later or on its own
// (its kind, for the message; ok false for none): a scheduled task, an
// autostart or logon entry of the registry, a service, a login item or
// hook, a boot-time service of an init system, lingering user services. What it runs is
// not judged again when it runs.
func Installs(name string, args []string) (string, bool) {
	n := strings.TrimSuffix(strings.ToLower(path.Base(name)), ".exe")
	switch n {
	case "schtasks":
		return "a scheduled task", anyFold(args, "/create", "-create", "/change")
	case "reg":
		if len(args) > 1 && (strings.EqualFold(args[0], "add") || strings.EqualFold(args[0], "import")) {
			return "an autostart entry of the registry", strings.EqualFold(args[0], "import") || autostartKey(args[1])
		}
	case "new-itemproperty", "set-itemproperty", "new-item":
		for i, a := range args {
			if strings.EqualFold(a, "-path") && i+1 < len(args) && autostartKey(args[i+1]) || autostartKey(a) {
				return "an autostart entry of the registry", true
			}
		}
	case "register-scheduledtask", "new-scheduledtask", "register-scheduledjob":
		return "a scheduled task", true
	case "new-service":
		return "a service", true
	case "sc":
		return "a service", len(args) > 1 && (strings.EqualFold(args[0], "create") || strings.EqualFold(args[0], "config") && anyFold(args, "binpath=")) // sc's syntax: "binPath= VALUE"
	case "defaults":
		// defaults write com.apple.loginwindow LoginHook SCRIPT: run as root at every login
		return "a login hook", len(args) > 2 && args[0] == "write" && anyFold(args[2:], "LoginHook", "LogoutHook")
	case "osascript":
		// make login item ...: an app opened at every login
		for _, a := range args {
			if strings.Contains(strings.ToLower(a), "login item") && strings.Contains(strings.ToLower(a), "make") {
				return "a login item", true
			}
		}
	case "loginctl":
		return "user services kept running at boot", len(args) > 0 && args[0] == "enable-linger"
	case "update-rc.d":
		return "a boot-time service", len(args) > 1 && (args[1] == "defaults" || args[1] == "enable")
	case "chkconfig":
		return "a boot-time service", len(args) > 1 && (args[1] == "on" || args[0] == "--add")
	case "rc-update":
		return "a boot-time service", len(args) > 1 && args[0] == "add"
	case "pm2":
		return "a process manager started at boot", len(args) > 0 && args[0] == "startup"
	}
	return "", false
}

// autostartKey reports a registry key whose values run at logon or in
// place of a program: Run and RunOnce, Winlogon's Shell and Userinit,
// Image File Execution Options (Debugger), the policies' Run lists.
func autostartKey(k string) bool {
	// separators dropped: an unquoted HKCU\Software\... reaches the
	// command from a POSIX shell without its backslashes
	k = strings.NewReplacer(`\`, "", "/", "", " ", "").Replace(strings.ToLower(k))
	if !strings.HasPrefix(k, "hk") {
		return false
	}
	for _, s := range []string{"currentversionrun", "winlogon", "imagefileexecutionoptions", "policiesexplorerrun",
		"explorershellfolders", "commandprocessor"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return strings.HasSuffix(k, "environment") // HKCU\Environment: UserInitMprLogonScript
}

// anyFold reports an argument that is one of words, case aside (Windows'
// commands take /Create and /create alike).
func anyFold(args []string, words ...string) bool {
	for _, a := range args {
		for _, w := range words {
			if strings.EqualFold(a, w) {
				return true
			}
		}
	}
	return false
}

// EnvFileLoads are the files a dotenv file's code-loading variables
// (EnvLoads: NODE_OPTIONS=--require F, LD_PRELOAD, PYTHONSTARTUP, ...)
// make every program started with it load: tools load .env on their own
// (bun, docker compose, uv --env-file, direnv's dotenv).
func EnvFileLoads(text string) []string {
	var out []string
	for n, line := range strings.Split(text, "\n") {
		if n >= 512 {
			break
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "export "), "=")
		if !ok {
			continue
		}
		out = append(out, EnvLoads(strings.TrimSpace(k), strings.TrimSpace(v))...)
	}
	return out
}

// DotenvFile reports a dotenv file by name: .env, .env.local, .env.test,
// app.env.
func DotenvFile(base string) bool {
	return base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env")
}
