package programs

// Runners: programs that run another command. Run says where it sits for
// the simple ones (after the options, or after one more operand); the
// others (sudo, env, xargs, find -exec, parallel, flock, watch, su, sg,
// ionice, command) have their own code in package parse, with the option
// grammar from here.
var _ = register(
	&Program{Name: "sudo", Kind: Runner | Privilege, Opts: S("ugCDhprtUTc", "user", "group", "close-from", "chdir", "host",
		"prompt", "role", "type", "other-user", "command-timeout", "login-class")},
	&Program{Name: "doas", Kind: Runner | Privilege, Opts: S("uC")},
	&Program{Name: "pkexec", Names: []string{"run0"}, Kind: Runner | Privilege, Run: RunAfterOptions,
		Opts: S("uDM", "user", "unit", "property", "slice", "chdir", "setenv", "description", "machine")},
	&Program{Name: "su", Names: []string{"runuser"}, Kind: Runner | Privilege, Opts: S("cCgGswu", "command", "session-command",
		"group", "supp-group", "shell", "whitelist-environment", "user")},
	&Program{Name: "sg", Kind: Runner | Privilege},
	&Program{Name: "machinectl", Kind: Privilege},
	&Program{Name: "env", Kind: Runner | NonReader, Opts: S("uCSP", "unset", "chdir", "split-string"),
		PrintsEnv: func(a []string) bool { return len(Operands(a)) == 0 }}, // env with no command prints it
	&Program{Name: "command", Kind: Runner | NonReader},
	&Program{Name: "builtin", Names: []string{"nohup", "busybox", "toybox"}, Kind: Runner}, // each runs its first operand
	&Program{Name: "setsid", Names: []string{"unbuffer", "caffeinate"}, Kind: Runner, Run: RunAfterOptions},
	&Program{Name: "chrt", Names: []string{"taskset"}, Kind: Runner, Run: RunAfterOperand},
	&Program{Name: "exec", Kind: Runner, Run: RunAfterOptions, Opts: S("a")},
	&Program{Name: "nice", Kind: Runner, Run: RunAfterOptions, Opts: S("n", "adjustment")},
	&Program{Name: "timeout", Kind: Runner, Run: RunAfterOperand, Opts: S("sk", "signal", "kill-after")},
	&Program{Name: "time", Kind: Runner, Run: RunAfterOptions, Opts: S("fo", "format", "output")},
	&Program{Name: "stdbuf", Kind: Runner, Run: RunAfterOptions, Opts: S("ioe", "input", "output", "error")},
	&Program{Name: "ionice", Kind: Runner, Opts: S("cnpPu", "class", "classdata", "pid", "pgid", "uid")},
	&Program{Name: "flock", Kind: Runner, Opts: S("wEc", "timeout", "conflict-exit-code", "command")},
	&Program{Name: "watch", Kind: Runner, Opts: S("nq", "interval", "equexit", "differences")},
	&Program{Name: "xargs", Kind: Runner, Opts: S("IndPLsaEe", "replace", "max-args", "delimiter", "max-procs",
		"max-lines", "max-chars", "arg-file", "eof", "process-slot-var")},
	&Program{Name: "parallel", Names: []string{"sem"}, Kind: Runner, Opts: S("jSIdaLnNXC", "jobs", "sshlogin", "colsep",
		"delimiter", "arg-file", "delay", "timeout", "max-args", "joblog", "results", "workdir", "basefile",
		"return", "env", "tmpdir", "max-lines", "retries", "halt", "memfree", "load", "tag-string", "sshloginfile")},
	&Program{Name: "chroot", Kind: Runner | Privilege, Run: RunAfterOperand, Opts: S("", "userspec", "groups")},
	&Program{Name: "strace", Names: []string{"ltrace"}, Kind: Runner, Run: RunAfterOptions,
		Opts: S("oesuaEIPXbpS", "output", "expr", "user", "string-limit", "env", "trace", "signal")},
	&Program{Name: "unshare", Names: []string{"nsenter", "firejail", "proot", "fakeroot", "catchsegv"}, Kind: Runner, Run: RunAfterOptions,
		Opts: S("tSG", "target", "setuid", "setgid")},
	&Program{Name: "script", Kind: Runner, Opts: S("cEIOBT", "command", "echo", "log-in", "log-out", "log-io", "log-timing", "output-limit")},
	&Program{Name: "eval", Kind: Runner},
	&Program{Name: "source", Names: []string{"."}, Kind: Runner},
	&Program{Name: "trap", Kind: Runner},
	&Program{Name: "at", Names: []string{"batch"}, Kind: Scheduler},
)
