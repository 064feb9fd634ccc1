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
	// pgrep PATTERN, pidof NAME print the ids of the processes they match;
	// kill PID... signals them (KillTargets, PidFinder)
	&Program{Name: "pgrep", Kind: NonReader, Opts: S("dgGPstuUFoy", "euid", "uid", "group", "session", "terminal",
		"parent", "pgroup", "pidfile", "older-than", "younger-than", "delimiter")},
	&Program{Name: "pidof", Kind: NonReader, Opts: S("o", "omit-pid")},
	&Program{Name: "kill", Kind: NonReader, Opts: S("sn", "signal")},
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

// signalNames are the signals a killer is told by name (-STOP, -SIGKILL).
var signalNames = map[string]bool{"HUP": true, "INT": true, "QUIT": true, "ILL": true, "TRAP": true, "ABRT": true,
	"BUS": true, "FPE": true, "KILL": true, "USR1": true, "SEGV": true, "USR2": true, "PIPE": true, "ALRM": true,
	"TERM": true, "CHLD": true, "CONT": true, "STOP": true, "TSTP": true, "TTIN": true, "TTOU": true, "XCPU": true,
	"XFSZ": true, "VTALRM": true, "PROF": true, "WINCH": true, "IO": true, "PWR": true, "SYS": true}

// withoutSignal drops the signal a killer is given as -NAME, -SIGNAME or
// -N (kill -9, killall -STOP): the letters of a name would otherwise read
// as options that take a value and swallow the target.
func withoutSignal(args []string) []string {
	var out []string
	for _, a := range args {
		if s, ok := strings.CutPrefix(a, "-"); ok && s != "" {
			s = strings.TrimPrefix(strings.ToUpper(s), "SIG")
			if signalNames[s] && strings.ToUpper(a) == a || strings.Trim(s, "0123456789") == "" && s != "" {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// KillSignal is the signal a killer is told (kill -9, -SIGSTOP, -s STOP,
// --signal=STOP, pkill -STOP), upper case without SIG; "" when none (the
// default, TERM).
func KillSignal(args []string) string {
	for i, a := range args {
		var v string
		switch {
		case a == "--":
			return ""
		case (a == "-s" || a == "-n" || a == "--signal") && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--signal="):
			v = strings.TrimPrefix(a, "--signal=")
		case strings.HasPrefix(a, "-") && len(a) > 1:
			s := strings.TrimPrefix(strings.ToUpper(a[1:]), "SIG")
			if signalNames[s] && strings.ToUpper(a) == a || s != "" && strings.Trim(s, "0123456789") == "" {
				v = s
			}
		}
		if v != "" {
			return strings.TrimPrefix(strings.ToUpper(v), "SIG")
		}
	}
	return ""
}

// StopsProcess reports a signal that freezes its target until it is
// continued: STOP, TSTP, TTIN, TTOU (19, 20, 21, 22 on Linux).
func StopsProcess(sig string) bool {
	switch sig {
	case "STOP", "TSTP", "TTIN", "TTOU", "19", "20", "21", "22":
		return true
	}
	return false
}

// KillTargets are what a process killer aims at: the names or patterns
// of pkill and killall, the pids (or %jobs) of kill, nil for others.
func KillTargets(name string, args []string) []string {
	p := Lookup(name)
	if p == nil {
		return nil
	}
	switch p.Name {
	case "pkill", "kill":
		return p.Parse(withoutSignal(args)).Pos
	}
	return nil
}

// ListsVarNames reports a builtin that prints the names of every shell
// or exported variable (compgen -v, compgen -e, compgen -A variable|export,
// declare -F is functions, not here): fed to ${!name}, every value follows.
func ListsVarNames(name string, args []string) bool {
	if name != "compgen" {
		return false
	}
	for i, a := range args {
		if a == "-v" || a == "-e" || (a == "-A" && i+1 < len(args) && (args[i+1] == "variable" || args[i+1] == "export")) {
			return true
		}
	}
	return false
}

// ThrottleTargets are what a process throttler aims at: the program
// names or paths it is given (cpulimit -e NAME, -P PATH), and whether it
// takes process ids (cpulimit -p, prlimit --pid, renice -p, ionice -p).
// A process held at 1% of a CPU, with no file descriptors or in the idle
// I/O class is as good as stopped.
func ThrottleTargets(name string, args []string) (names []string, pids bool) {
	switch base(name) {
	case "cpulimit":
		o := Parse(args, S("lpeP", "limit", "pid", "exe", "path"))
		for _, v := range []string{o.Value('e', "exe"), o.Value('P', "path")} {
			if v != "" {
				names = append(names, v)
			}
		}
		return names, o.Has('p', "pid")
	case "prlimit":
		return nil, anyPrefix(args, "--pid", "-p")
	case "renice":
		return nil, !has(args, "-g", "-u", "--pgrp", "--user")
	case "ionice":
		return nil, anyPrefix(args, "-p", "--pid")
	}
	return nil, false
}

func base(name string) string {
	if k := strings.LastIndexByte(name, '/'); k >= 0 {
		return name[k+1:]
	}
	return name
}

// PidFinder are the names or patterns whose process ids a finder prints
// (pgrep PATTERN, pidof NAME), nil for a program that is none.
func PidFinder(name string, args []string) []string {
	p := Lookup(name)
	if p == nil || p.Name != "pgrep" && p.Name != "pidof" {
		return nil
	}
	return p.Parse(args).Pos
}
