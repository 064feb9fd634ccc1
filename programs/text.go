package programs

import "strings"

// Text tools and others that write or run through their scripts and
// options (issue 19 class 10): sed's w/W/r/R/e commands and s///w and
// s///e, awk's print > "F", getline < "F", "CMD" | getline and print |
// "CMD", sort -o F, rg --pre CMD, tar's --checkpoint-action=exec= and
// --to-command, ssh's ProxyCommand, rsync -e, make --eval, zip -TT, vim
// -c '!CMD', gdb -ex 'shell CMD', the database shells' \! and .shell.
// Their grammar is here; parse re-reads the code (CodeIn) and the judge
// reads the files (Outputs, Inputs) like any other operand.

// sedScripts are sed's scripts in args: -e/--expression values, or the
// first operand.
func sedScripts(args []string) []string {
	var out []string
	first := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
			first = false
		case strings.HasPrefix(a, "--expression="):
			out = append(out, a[len("--expression="):])
			first = false
		case strings.HasPrefix(a, "-e") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			out = append(out, a[2:])
			first = false
		case a == "-f" || a == "--file" || a == "-l" || a == "--line-length":
			i++
			first = false
		case strings.HasPrefix(a, "-"):
		default:
			if first {
				out = append(out, a)
				first = false
			}
		}
	}
	return out
}

// SedEffect is what one sed script does besides editing its stream.
type SedEffect struct {
	Writes, Reads []string // w/W FILE, s///w FILE; r/R FILE
	Code          []string // e COMMAND
	RunsStream    bool     // e alone, s///e: the pattern space is run as a command
}

// SedScan reads a sed script's commands (GNU syntax, bounded by the text).
func SedScan(s string) SedEffect {
	var ef SedEffect
	i := 0
	toEOL := func() string {
		k := strings.IndexByte(s[i:], '\n')
		if k < 0 {
			k = len(s) - i
		}
		v := strings.TrimSpace(s[i : i+k])
		i += k
		return v
	}
	skipDelim := func(d byte) { // past the next unescaped d
		for i < len(s) && s[i] != d {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		i++
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',':
			i++
			continue
		case c >= '0' && c <= '9' || c == '$' || c == '~' || c == '+':
			i++
			continue
		case c == '/':
			i++
			skipDelim('/')
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		case c == '\\' && i+1 < len(s):
			d := s[i+1]
			i += 2
			skipDelim(d)
			continue
		}
		i++ // the command letter
		switch c {
		case 's', 'y':
			if i >= len(s) {
				return ef
			}
			d := s[i]
			i++
			skipDelim(d)
			skipDelim(d)
			if c == 'y' {
				continue
			}
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch s[i] {
				case 'e':
					ef.RunsStream = true
				case 'w':
					i++
					ef.Writes = append(ef.Writes, toEOL())
					continue
				}
				i++
			}
		case 'w', 'W':
			ef.Writes = append(ef.Writes, toEOL())
		case 'r', 'R':
			ef.Reads = append(ef.Reads, toEOL())
		case 'e':
			if cmd := toEOL(); cmd != "" {
				ef.Code = append(ef.Code, cmd)
			} else {
				ef.RunsStream = true
			}
		case 'a', 'i', 'c':
			// the text runs to the end of the line, and on past every
			// line that ends with a backslash (a\ NEWLINE text)
			for strings.HasSuffix(toEOL(), "\\") && i < len(s) {
				i++
			}
		case 'b', 't', 'T', ':':
			for i < len(s) && s[i] != ';' && s[i] != '\n' {
				i++
			}
		}
	}
	return ef
}

func sedEffects(args []string) (ef SedEffect, at []int) {
	for _, sc := range sedScripts(args) {
		e := SedScan(sc)
		ef.Writes = append(ef.Writes, e.Writes...)
		ef.Reads = append(ef.Reads, e.Reads...)
		ef.RunsStream = ef.RunsStream || e.RunsStream
		for _, c := range e.Code {
			ef.Code = append(ef.Code, c)
			at = append(at, argIndex(args, sc))
		}
	}
	return ef, at
}

func argIndex(args []string, v string) int {
	for i, a := range args {
		if a == v || strings.HasSuffix(a, v) {
			return i
		}
	}
	return -1
}

func sedCode(args []string) []Code {
	ef, at := sedEffects(args)
	var out []Code
	for k, c := range ef.Code {
		out = append(out, Code{Arg: at[k], Text: c, Via: "sed e"})
	}
	return out
}

// awkProgram is awk's program text: the first operand after its options
// (-f FILE: not known here).
func awkProgram(args []string) (string, int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "--file":
			return "", -1
		case a == "-F" || a == "-v" || a == "--assign" || a == "--field-separator" ||
			a == "-i" || a == "--include" || a == "-l" || a == "--load" || a == "-E" || a == "--exec":
			i++ // gawk -i inplace: a library, not the program
		case strings.HasPrefix(a, "-"):
		default:
			return a, i
		}
	}
	return "", -1
}

// awkStrings finds OP "TEXT" (after) or "TEXT" OP (before) in an awk
// program: > "F", >> "F", < "F", | "CMD", "CMD" |.
func awkStrings(prog, op string, after bool) []string {
	var out []string
	for k := 0; k < len(prog); k++ {
		if !strings.HasPrefix(prog[k:], op) {
			continue
		}
		if after {
			rest := strings.TrimLeft(prog[k+len(op):], " \t")
			if strings.HasPrefix(rest, "\"") {
				if e := strings.IndexByte(rest[1:], '"'); e >= 0 {
					out = append(out, rest[1:1+e])
				}
			}
			continue
		}
		before := strings.TrimRight(prog[:k], " \t")
		if strings.HasSuffix(before, "\"") {
			if s := strings.LastIndexByte(before[:len(before)-1], '"'); s >= 0 {
				out = append(out, before[s+1:len(before)-1])
			}
		}
	}
	return out
}

// awkCode: "CMD" | getline runs CMD; print | "CMD" runs CMD with the
// printed lines on its stdin (a shell there runs what awk prints: Code
// with no text, see AwkRunsStream).
func awkCode(args []string) []Code {
	prog, at := awkProgram(args)
	if at < 0 {
		return nil
	}
	var out []Code
	for _, c := range awkStrings(prog, "|", false) {
		out = append(out, Code{Arg: at, Text: c, Via: "awk \"CMD\" | getline"})
	}
	for _, c := range awkStrings(prog, "|", true) {
		if !strings.HasPrefix(strings.TrimLeft(prog[strings.Index(prog, c)+len(c):], "\" "), "getline") {
			out = append(out, Code{Arg: at, Text: c, Via: "awk print | \"CMD\""})
		}
	}
	return out
}

// StreamShell reports arguments that make the program run the text it
// produces as shell commands, text no grammar can know beforehand: sed's
// e alone or s///e, awk's print | "sh".
func StreamShell(name string, args []string) bool {
	switch Canon(name) {
	case "sed":
		ef, _ := sedEffects(args)
		return ef.RunsStream
	case "rg":
		vals, _ := optValues(args, "--pre")
		for _, v := range vals {
			if f := strings.Fields(v); len(f) > 0 && (Is(baseOf(f[0]), Shell) || Is(baseOf(f[0]), Interpreter)) {
				return true // rg --pre=sh: every file searched is run
			}
		}
	case "awk":
		prog, at := awkProgram(args)
		if at < 0 {
			return false
		}
		for _, c := range awkStrings(prog, "|", true) {
			if f := strings.Fields(c); len(f) > 0 && (Is(baseOf(f[0]), Shell) || Is(baseOf(f[0]), Interpreter)) && len(f) <= 2 {
				return true
			}
		}
	}
	return false
}

func awkOutputs(args []string) []string {
	prog, at := awkProgram(args)
	if at < 0 {
		return nil
	}
	return append(awkStrings(prog, ">>", true), awkStrings(prog, ">", true)...)
}

func awkInputs(args []string) []string {
	prog, at := awkProgram(args)
	if at < 0 {
		return nil
	}
	return awkStrings(prog, "<", true)
}

// sortOutputs: sort -o F, --output=F.
func sortOutputs(args []string) []string {
	o := Parse(args, sortSpec)
	if v := o.Value('o', "output"); v != "" {
		return []string{v}
	}
	return nil
}

// optValue returns the values of an option given as OPT V, OPT=V or
// (short) -OV, with the index of the word holding each.
func optValues(args []string, opt string) (vals []string, at []int) {
	for i, a := range args {
		switch {
		case a == opt && i+1 < len(args):
			vals, at = append(vals, args[i+1]), append(at, i+1)
		case strings.HasPrefix(opt, "--") && strings.HasPrefix(a, opt+"="):
			vals, at = append(vals, a[len(opt)+1:]), append(at, i)
		case len(opt) == 2 && !strings.HasPrefix(a, "--") && strings.HasPrefix(a, opt) && len(a) > 2:
			vals, at = append(vals, a[2:]), append(at, i)
		}
	}
	return vals, at
}

// codeOpts turns the values of options that hold a command into Code.
func codeOpts(args []string, via string, opts ...string) []Code {
	var out []Code
	for _, o := range opts {
		vals, at := optValues(args, o)
		for k, v := range vals {
			out = append(out, Code{Arg: at[k], Text: v, Via: via + " " + o})
		}
	}
	return out
}

// rgCode: rg --pre CMD runs CMD on every file it searches.
func rgCode(args []string) []Code { return codeOpts(args, "rg", "--pre") }

// tarCode: tar runs commands from --checkpoint-action=exec=CMD,
// --to-command, -I/--use-compress-program, -F/--info-script,
// --new-volume-script, --rsh-command.
func tarCode(args []string) []Code {
	out := codeOpts(args, "tar", "--to-command", "--use-compress-program", "-I", "--info-script", "-F",
		"--new-volume-script", "--rsh-command")
	vals, at := optValues(args, "--checkpoint-action")
	for k, v := range vals {
		if c, ok := strings.CutPrefix(v, "exec="); ok {
			out = append(out, Code{Arg: at[k], Text: c, Via: "tar --checkpoint-action=exec"})
		}
	}
	return out
}

// sshOptCode: ssh/scp/sftp -o ProxyCommand=CMD (also "ProxyCommand CMD",
// -oProxyCommand=CMD), LocalCommand, KnownHostsCommand, Match exec CMD;
// scp/sftp -S PROGRAM.
func sshOptCode(args []string) []Code {
	var out []Code
	vals, at := optValues(args, "-o")
	for k, v := range vals {
		key, val, ok := strings.Cut(v, "=")
		if !ok {
			key, val, ok = strings.Cut(v, " ")
		}
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
			if strings.EqualFold(strings.TrimSpace(key), "remotecommand") {
				continue // runs on the other machine: ssh's own remote handling
			}
			out = append(out, Code{Arg: at[k], Text: strings.TrimSpace(val), Via: "ssh -o " + key})
		case "match":
			if f := strings.Fields(val); len(f) > 1 && strings.EqualFold(f[0], "exec") {
				out = append(out, Code{Arg: at[k], Text: strings.Trim(strings.Join(f[1:], " "), "\"'"), Via: "ssh -o Match exec"})
			}
		}
	}
	return out
}

func scpCode(args []string) []Code { return append(sshOptCode(args), codeOpts(args, "scp", "-S")...) }

// rsyncCode: rsync -e/--rsh CMD runs CMD here to reach the other side.
func rsyncCode(args []string) []Code { return codeOpts(args, "rsync", "-e", "--rsh") }

// zipCode: zip -TT/--unzip-command CMD tests the archive with CMD.
func zipCode(args []string) []Code { return codeOpts(args, "zip", "-TT", "--unzip-command") }

// vimCode: vim -c CMD / +CMD / --cmd CMD whose Ex command is ! (a shell):
// vim -c '!rm -rf ~' -c q, vim -c 'silent !cmd'.
func vimCode(args []string) []Code {
	var out []Code
	check := func(v string, at int) {
		v = strings.TrimLeft(strings.TrimSpace(v), ":")
		v = strings.TrimSpace(strings.TrimPrefix(v, "silent"))
		if c, ok := strings.CutPrefix(v, "!"); ok && c != "" {
			out = append(out, Code{Arg: at, Text: c, Via: "vim -c !"})
		}
		if c, ok := strings.CutPrefix(v, "call system("); ok && len(c) > 2 {
			out = append(out, Code{Arg: at, Text: strings.Trim(strings.TrimSuffix(c, ")"), "'\""), Via: "vim system()"})
		}
		out = append(out, Code{Arg: at, Text: v, Via: "vim -c", Lang: "vim"}) // lua os.execute(...), py3 os.system(...)
	}
	for _, o := range []string{"-c", "--cmd"} {
		vals, at := optValues(args, o)
		for k, v := range vals {
			check(v, at[k])
		}
	}
	// emacs --eval / -eval: Emacs Lisp (shell-command, delete-directory)
	for _, o := range []string{"--eval", "-eval"} {
		vals, at := optValues(args, o)
		for k, v := range vals {
			out = append(out, Code{Arg: at[k], Text: v, Via: "emacs --eval", Lang: "elisp"})
		}
	}
	for i, a := range args {
		if strings.HasPrefix(a, "+") && len(a) > 1 {
			check(a[1:], i)
		}
	}
	return out
}

// gdbCode: gdb -ex 'shell CMD' / -ex '!CMD' / -eval-command.
func gdbCode(args []string) []Code {
	var out []Code
	for _, o := range []string{"-ex", "--ex", "-eval-command", "--eval-command"} {
		vals, at := optValues(args, o)
		for k, v := range vals {
			v = strings.TrimSpace(v)
			if c, ok := strings.CutPrefix(v, "shell "); ok {
				out = append(out, Code{Arg: at[k], Text: c, Via: "gdb shell"})
			} else if c, ok := strings.CutPrefix(v, "!"); ok {
				out = append(out, Code{Arg: at[k], Text: c, Via: "gdb !"})
			} else {
				out = append(out, Code{Arg: at[k], Text: v, Via: "gdb -ex", Lang: "gdb"}) // python os.system(...)
			}
		}
	}
	return out
}

// makeEvalCode: make --eval TEXT / -E TEXT adds makefile text: a rule's
// recipe after ";" or on tab-indented lines, $(shell CMD) anywhere.
func makeEvalCode(args []string) []Code {
	var out []Code
	for i, a := range args {
		// make SHELL=PROG: every recipe line runs through PROG
		if v, ok := strings.CutPrefix(a, "SHELL="); ok && v != "" {
			out = append(out, Code{Arg: i, Text: v, Via: "make SHELL="})
		}
	}
	for _, o := range []string{"--eval", "-E"} {
		vals, at := optValues(args, o)
		for k, v := range vals {
			for _, line := range strings.Split(v, "\n") {
				switch {
				case strings.HasPrefix(line, "\t"):
					out = append(out, Code{Arg: at[k], Text: strings.TrimLeft(line, "\t@-+"), Via: "make --eval recipe"})
				case strings.Contains(line, ":") && strings.Contains(line, ";"):
					_, r, _ := strings.Cut(line, ";")
					out = append(out, Code{Arg: at[k], Text: strings.TrimLeft(strings.TrimSpace(r), "@-+"), Via: "make --eval recipe"})
				}
				for rest := line; ; {
					s := strings.Index(rest, "$(shell ")
					if s < 0 {
						break
					}
					e := strings.IndexByte(rest[s:], ')')
					if e < 0 {
						break
					}
					out = append(out, Code{Arg: at[k], Text: rest[s+len("$(shell ") : s+e], Via: "make $(shell)"})
					rest = rest[s+e:]
				}
			}
		}
	}
	return out
}

// dbShellCode: psql -c '\! CMD', mysql -e 'system CMD' / '\! CMD',
// sqlite3 DB '.shell CMD' / '.system CMD': the clients' shell escapes.
func dbShellCode(args []string) []Code {
	var out []Code
	for i, a := range args {
		for _, line := range strings.Split(a, "\n") {
			line = strings.TrimSpace(line)
			for _, pre := range []string{"\\!", "system ", ".shell ", ".system "} {
				if c, ok := strings.CutPrefix(line, pre); ok && strings.TrimSpace(c) != "" {
					out = append(out, Code{Arg: i, Text: strings.TrimSpace(c), Via: "database shell escape"})
				}
			}
		}
	}
	return out
}

// gitDiffOutputs: git diff/log/show/format-patch --output=F writes F.
func gitOutputs(args []string) []string {
	sub, rest, _ := GitSplit(args)
	switch sub {
	case "diff", "log", "show", "format-patch", "range-diff", "whatchanged":
		vals, _ := optValues(rest, "--output")
		return vals
	}
	return nil
}

// hyperfineCode: each operand is shell text hyperfine runs (and
// --prepare, --setup, --cleanup, --conclude).
func hyperfineCode(args []string) []Code {
	out := codeOpts(args, "hyperfine", "--prepare", "-p", "--setup", "-s", "--cleanup", "-c", "--conclude")
	o := Parse(args, S("pscwrmMnNLSuo", "prepare", "setup", "cleanup", "conclude", "warmup", "runs", "min-runs",
		"max-runs", "command-name", "parameter-scan", "parameter-list", "shell", "export-json", "export-markdown",
		"export-csv", "time-unit", "output"))
	for _, v := range o.Pos {
		out = append(out, Code{Arg: argIndex(args, v), Text: v, Via: "hyperfine"})
	}
	return out
}

var _ = register(
	&Program{Name: "make", Names: []string{"gmake"}, Kind: NonReader, CodeIn: makeEvalCode,
		Opts: S("CfIjloWE", "directory", "file", "makefile", "include-dir", "jobs", "load-average", "old-file", "what-if", "eval")},
	&Program{Name: "gdb", Kind: Runner, CodeIn: gdbCode},
	// lldb -o/-O/-k CMD: its commands (platform shell CMD, script PYTHON)
	&Program{Name: "lldb", Kind: Runner, CodeIn: langCode("lldb -o", "lldb", "-o", "-O", "-k", "-K", "--one-line", "--one-line-before-file", "--one-line-on-crash")},
	&Program{Name: "hyperfine", Kind: Runner, CodeIn: hyperfineCode},
	&Program{Name: "valgrind", Names: []string{"chronic", "nq", "tsp", "dbus-launch", "numactl", "prlimit", "cpulimit"},
		Kind: Runner, Launch: launchAt(S("lpe", "limit", "pid", "exe", "membind", "cpunodebind", "physcpubind", "interleave", "preferred", "tool", "log-file"))},
	&Program{Name: "setarch", Names: []string{"linux32", "linux64"}, Kind: Runner, Run: RunAfterOperand},
)
