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
