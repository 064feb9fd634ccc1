package programs

import "strings"

// System programs: services, schedulers, process killers, the
// environment's printers. What they do to the system is judged in judge
// (SYS-*, PERSISTENCE-INSTALL, SENTINEL-DISABLE, ENV-DUMP); their grammar
// and names are here.
var _ = register(
	// crontab FILE / - installs, -l lists, -r removes every job, -e edits
	&Program{Name: "crontab", Kind: Scheduler, Opts: S("uc")},
	&Program{Name: "systemctl", Kind: Scheduler, Opts: S("HMtpPsn", "host", "machine", "type", "property", "signal", "lines")},
	&Program{Name: "loginctl", Opts: S("HMpsn", "host", "machine", "property", "signal", "lines")},
	&Program{Name: "service"},
	&Program{Name: "launchctl", Kind: Scheduler},
	// pkill PATTERN, killall NAME: -u USER with no pattern kills every
	// process of the user.
	&Program{Name: "pkill", Names: []string{"killall", "skill", "slay"}, Opts: S("dgGPstuUFoy", "signal", "euid", "uid",
		"group", "session", "terminal", "parent", "pgroup", "pidfile", "older-than", "younger-than", "user")},
	// killall5 signals every process: its own entry, or Lookup would take
	// it for killall with a version
	&Program{Name: "killall5"},
	// ps with BSD's e (ps auxeww, ps e) prints every process's environment
	&Program{Name: "ps", Kind: NonReader | CredPrinter, PrintsCredentials: func(a []string) bool {
		for _, x := range a {
			if x != "" && x[0] != '-' && strings.IndexByte(x, 'e') >= 0 && strings.Trim(x, "auxwefjlmsvrTgcnhHSZLX") == "" {
				return true
			}
		}
		return false
	}},
	&Program{Name: "printenv", Kind: NonReader, PrintsEnv: func(a []string) bool { return len(Operands(a)) == 0 }},
	// shell builtins that print the environment with no arguments or -p/-x
	&Program{Name: "set", Names: []string{"export", "declare", "typeset"}, Kind: NonReader, PrintsEnv: func(a []string) bool {
		return len(a) == 0 || len(a) == 1 && (a[0] == "-p" || a[0] == "-x" || a[0] == "-px")
	}},
)
