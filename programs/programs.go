// Package programs is what sentinel knows about the programs a command
// runs: for each program (or family) its option grammar and what it is (a
// shell, an interpreter, a downloader, a decoder, a network sender, an
// uploader, a printer of credentials, a reader, writer or deleter of files,
// a runner of other commands, a carrier of command-running settings).
//
// Every pass reads from here: parse (wrappers, shells, interpreters),
// every rule of package judge, laundering, and the census's classes. A
// reader who wants to know what sentinel knows about git or curl opens
// git.go or net.go. Nothing else keeps its own list of program names.
//
// The package is pure data plus small pure functions over argument lists;
// it never executes or opens anything.
package programs

import (
	"slices"
	"strings"
)

// Kind is a set of what a program is.
type Kind uint32

// The kinds. A program may be several (ssh is a network sender and a runner
// of remote commands; curl a downloader and a network sender).
const (
	Shell           Kind = 1 << iota // runs shell code: -c STRING, a script, stdin
	Interpreter                      // runs code of another language (Lang)
	Downloader                       // fetches content from the network; its output may be code
	Decoder                          // turns encoded text back into text (in decode mode: Decodes)
	NetSender                        // sends data over the network: the network half of exfiltration
	Uploader                         // sends local files to a service without a URL on the line (Uploads)
	CredPrinter                      // prints credentials (PrintsCredentials)
	Reader                           // prints or sends the files named by its operands
	NonReader                        // never prints a file's content (ls, stat, chmod ...)
	Writer                           // writes the files named by its operands or options
	Deleter                          // deletes the files named by its operands
	Runner                           // runs another command (Run says where it sits)
	SettingsCarrier                  // takes settings that run commands (git -c core.pager=...)
	EnvSetup                         // prints shell setup code meant for eval "$(x init)"
	Lister                           // prints file names (find, fd, ls, git ls-files): feeds xargs
	Database                         // a database client: runs the SQL it is given
	Privilege                        // runs a command as another (root) user
	Scheduler                        // runs commands later (cron, at, systemd timers)
	Archiver                         // packs, copies or syncs whole trees (tar, zip, rsync, cp -r)
	Copier                           // copies SOURCE... to DEST: the last operand, or -t DIR (CopyDest)
	PkgManager                       // installs packages (Installs: its install subcommands; InstallOperands)
	TaskRunner                       // runs a project's or framework's tasks, database resets among them (rails db:drop)
	Infra                            // provisions infrastructure (terraform, pulumi): Destroys tears it down
	Cluster                          // manages a cluster (kubectl, helm): Destroys deletes its resources
	Cloud                            // a cloud provider's CLI: Destroys deletes or terminates its resources
	Permissions                      // changes modes, owners, attributes or ACLs (chmod, chown, chattr, setfacl)
	Pattern                          // its first operand is a pattern or a filter program: data, never a command (grep, sed, jq)
	Manual                           // looks its operands up (man, which, type, tldr): they are names, not commands
	Storage                          // manages volumes, pools or disk encryption (lvremove, zpool, cryptsetup): Destroys loses a file system
)

// Has reports whether k includes every kind in want.
func (k Kind) Has(want Kind) bool { return k&want == want }

// Any reports whether k includes one of the kinds in want.
func (k Kind) Any(want Kind) bool { return k&want != 0 }

// Run says where the command a Runner runs sits in its arguments.
type Run int

const (
	RunNone         Run = iota // not a simple runner (handled by its own code)
	RunAfterOptions            // the first operand after the options: nice, exec, stdbuf
	RunAfterOperand            // after one more operand: timeout DURATION, chroot ROOT, taskset MASK
)

// Program is one entry of the model.
type Program struct {
	Name  string
	Names []string // other names for the same program (nodejs for node)
	Kind  Kind
	Lang  string // Interpreter: "python", "js", "perl", "ruby", "php", "lua", ...
	// Opts is the option grammar: which options take a value.
	Opts Spec
	// Inline are the short options whose value (or next word) is code to run
	// (python -c, node -e, perl -e, sh -c); InlineLong the long ones
	// (node --eval, --print).
	Inline     string
	InlineLong []string
	// Attached are options whose value is written onto them (perl -i.bak).
	Attached string
	// AttachedDigits are options whose attached value is digits only
	// (perl -l[octal], -0[octal]): the cluster goes on after the digits, so
	// perl -le CODE is -l then -e CODE.
	AttachedDigits string
	// Module is the option that runs a module instead of a script
	// (python -m); Check the options that only read the code and check its
	// syntax (bash -n, node -c, ruby -c, php -l), CheckLong the long ones
	// (node --check), CheckModules the modules that only compile their
	// operands (python -m py_compile): see ChecksOnly.
	Module, Check string
	CheckLong     []string
	CheckModules  []string
	// CheckRuns: the check still runs some of the code (perl -c runs BEGIN
	// and CHECK blocks), so it is not ChecksOnly.
	CheckRuns bool
	// Run and RunSkip say where a Runner's command sits.
	Run Run
	// HostFirst: the first operand is the host (ssh HOST, nc HOST PORT).
	HostFirst bool
	// URLHost: bare operands that look like host names are hosts (curl x.io).
	URLHost bool
	// KeyOpts are short options whose value is a key file used, not read out
	// (ssh -i KEY).
	KeyOpts string
	// KeyArgs are whole-word options whose value is a key file used, not
	// read out (openssl req -key KEY, x509 -signkey KEY).
	KeyArgs []string
	// Decodes reports whether the arguments put a Decoder in decode mode.
	Decodes func(args []string) bool
	// Uploads reports whether the arguments make an Uploader send files.
	Uploads func(args []string) bool
	// PrintsCredentials reports whether the arguments make it print a
	// credential (gh auth token, kubectl get secret -o yaml).
	PrintsCredentials func(args []string) bool
	// Outputs are the files it writes by its options or operands (curl -o
	// F, -O; tee F; dd of=F; gpg -o F), not by redirects; paths as written.
	Outputs func(args []string) []string
	// Unpacks reports an extraction and what it unpacks: the archive ("" or
	// "-" for stdin) and the directory given (tar -x -C DIR, unzip -d DIR;
	// "" when it unpacks in place).
	Unpacks func(args []string) (archive, dest string, ok bool)
	// StdinCode reports arguments that make a program that is no shell or
	// interpreter take the code it runs from stdin (make -f -, cmake -P
	// /dev/stdin, gdb -x /dev/stdin, sqlite3 with no SQL operand):
	// stdincode.go, CodeOnStdin.
	StdinCode func(args []string) bool
	// Attaches reports whether the arguments hand a program to the
	// network connection (nc -e /bin/sh, socat EXEC:/bin/sh): whoever is at
	// the other end drives it.
	Attaches func(args []string) bool
	// Destroys reports whether the arguments tear down what the program
	// manages: infrastructure (terraform destroy), cluster or cloud
	// resources (kubectl delete, aws ec2 terminate-instances), a database
	// (dropdb, redis-cli FLUSHALL). A dry run destroys nothing.
	Destroys func(args []string) bool
	// Installs are a PkgManager's subcommands that install packages
	// (npm install/i/add/ci, pip install); Manifest the file whose scripts
	// an install with no package operand runs (npm install: package.json).
	Installs []string
	Manifest string
	// InstallRunsCode: an install runs code the package brings (setup.py,
	// npm scripts, a deb's maintainer scripts, build.rs, a formula); go
	// install only builds.
	InstallRunsCode bool
	// ModeOperand: the first operand is the mode or owner, not a file
	// (chmod MODE F, chown USER F), unless --reference gives it.
	ModeOperand bool
	// PrintsEnv reports whether the arguments make it print the whole
	// environment (env, printenv, export -p, declare -x, set).
	PrintsEnv func(args []string) bool
	// TextOpts are options whose value is text (a message, a title, a
	// body): data, never a command (gh pr create --body TEXT).
	TextOpts []string
	// RunVerb is the subcommand before a script (deno run x.ts, bun run);
	// ScriptOpt the option whose value is the script (php -f x.php).
	RunVerb   string
	ScriptOpt byte
	// EvalVerb is the subcommand whose operand is code (crystal eval CODE).
	EvalVerb string
	// EditsOperands: the program may change any file it is given (an
	// editor: vim -Es -c '%s/x/y/' -c wq F writes F with no redirect in
	// sight); ReadOnly reports the arguments that make it only show them.
	EditsOperands bool
	ReadOnly      func(args []string) bool
	// Links reports the links the arguments make (ln, cp -s/-l, mount
	// --bind): the existing paths linked to, and the name the link gets
	// (intoDir: a directory each target's link is made in, under the
	// target's base name). Opening the name later opens the target.
	Links func(args []string) (targets []string, name string, intoDir bool)
	// Prints are the paths whose content a program that is otherwise no
	// reader prints or stores for printing (git show REV:PATH, git diff
	// --no-index A B, git blame F): paths as written, with words that
	// may be revisions among them.
	Prints func(args []string) []string
	// Launch says where a launcher's command sits (launch.go); ok false:
	// these arguments start none (screen -r, tmux ls).
	Launch func(args []string) (Launched, bool)
	// CodeIn returns the code its arguments hold (ssh -o ProxyCommand=,
	// tar --checkpoint-action=exec=, rg --pre, sed's e, awk's system()).
	CodeIn func(args []string) []Code
	// Inputs are files it reads by its options or script, not its
	// operands (sed's r FILE, awk's getline < "FILE").
	Inputs func(args []string) []string
	// Removes are the operands a program deletes besides what it is
	// for: an archiver told to remove what it packed (tar --remove-files,
	// zip -m, 7z -sdel), a trash tool; paths as written (tar's joined to
	// its -C directory).
	Removes func(args []string) []string
	// MountsOn is the directory the arguments mount a file system over
	// (mount SRC DIR, sshfs HOST:P DIR): what it held is hidden, and
	// writes go elsewhere, until it is unmounted; "" for none.
	MountsOn func(args []string) string
	// Publishes reports whether the arguments make a private remote
	// repository public (gh repo edit --visibility public, an API write of
	// visibility=public): its whole history is out.
	Publishes func(args []string) bool
	// Renames are the operands renamed in place (rename 's/x/y/' FILES);
	// Zeroes those whose content is destroyed without a write by name
	// (fallocate --punch-hole F), or left empty by what writes them: an
	// output written from nothing (sort -o F /dev/null, uniq /dev/null F,
	// shuf -n 0 -o F, xxd -r /dev/null F), an in-place edit whose program
	// prints nothing (gawk -i inplace 'NR<0' F): paths as written.
	Renames func(args []string) []string
	Zeroes  func(args []string) []string
}

// Is reports whether p is non-nil and of every kind in k.
func (p *Program) Is(k Kind) bool { return p != nil && p.Kind.Has(k) }

// Parse splits args GNU style with the program's option grammar.
func (p *Program) Parse(args []string) Opts {
	if p == nil {
		return Parse(args, Spec{})
	}
	return Parse(args, p.Opts)
}

// ChecksOnly reports that args (after the program's name) make it read
// its code and check it without running any of it: bash -n x.sh, sh -n,
// node -c / --check, ruby -c, php -l, python -m py_compile / compileall.
// Only the options before the first operand count (bash x.sh -n runs
// x.sh with the argument -n), and an option whose value is code ends the
// scan (python -c CODE -m py_compile runs CODE).
func (p *Program) ChecksOnly(args []string) bool {
	if p == nil || p.CheckRuns || (p.Check == "" && len(p.CheckLong) == 0 && len(p.CheckModules) == 0) {
		return false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || len(a) < 2 || a[0] != '-':
			return false
		case strings.HasPrefix(a, "--"):
			name, _, hasVal := strings.Cut(a[2:], "=")
			if slices.Contains(p.CheckLong, name) {
				return true
			}
			if slices.Contains(p.InlineLong, name) {
				return false
			}
			if !hasVal && p.Opts.longTakes(name) {
				i++
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			switch {
			case strings.IndexByte(p.Check, c) >= 0:
				return true
			case strings.IndexByte(p.Inline, c) >= 0:
				return false
			case p.Module != "" && c == p.Module[0]:
				mod := a[k+1:]
				if mod == "" && i+1 < len(args) {
					mod = args[i+1]
				}
				return slices.Contains(p.CheckModules, mod)
			case strings.IndexByte(p.AttachedDigits, c) >= 0:
				k += p.DigitsAfter(a[k+1:])
			case strings.IndexByte(p.Opts.Short, c) >= 0 || strings.IndexByte(p.Attached, c) >= 0:
				if k == len(a)-1 && strings.IndexByte(p.Opts.Short, c) >= 0 {
					i++ // the value is the next word
				}
				k = len(a)
			}
		}
	}
	return false
}

// DigitsAfter is how many leading characters of rest are the digits an
// AttachedDigits option takes (octal or hex: 0-9, a-f after x).
func (p *Program) DigitsAfter(rest string) int {
	n := 0
	for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || n > 0 && rest[n] == 'x' || n > 1 && rest[1] == 'x' && strings.IndexByte("abcdefABCDEF", rest[n]) >= 0) {
		n++
	}
	return n
}

var index = map[string]*Program{}

// register adds a family's table to the model. Each family file calls it
// from a package-level var, so that the tables are all there before any
// function of the package runs.
func register(ps ...*Program) bool {
	for _, p := range ps {
		for _, n := range append([]string{p.Name}, p.Names...) {
			if _, dup := index[n]; dup {
				panic("programs: " + n + " is in two tables")
			}
			index[n] = p
		}
	}
	return true
}

// Lookup returns what the model knows about a command name (a base name:
// "python3.12", "nodejs", "cmd.exe"), or nil. Versioned names resolve to
// their program: python3.12 and python3 are python, php8.2 is php, pip3.11
// is pip. A name in the model with its own digits (python2, base64) is
// found first as it is.
func Lookup(name string) *Program {
	if p, ok := index[name]; ok {
		return p
	}
	n := strings.TrimSuffix(strings.ToLower(name), ".exe")
	if p, ok := index[n]; ok {
		return p
	}
	// credential helpers are named by prefix (docker-credential-pass)
	for _, pre := range []string{"docker-credential-", "git-credential-"} {
		if strings.HasPrefix(n, pre) && len(n) > len(pre) {
			return index[pre[:len(pre)-1]]
		}
	}
	if ldsoName(n) {
		return index["ld.so"]
	}
	// strip a version suffix: digits, dots, dashes and underscores
	s := strings.TrimRight(n, "0123456789.-_")
	if s != n && s != "" {
		if p, ok := index[s]; ok {
			return p
		}
	}
	return nil
}

// Canon is the model's name for a command name (chgrp is chown, podman is
// docker, python3.12 is python), or name itself when the model does not
// know it. A pass that treats one program its own way switches on it, so
// the aliases are written only here.
func Canon(name string) string {
	if p := Lookup(name); p != nil {
		return p.Name
	}
	return name
}

// Is reports whether the command name is a program of every kind in k.
func Is(name string, k Kind) bool { return Lookup(name).Is(k) }

// All returns every program of the model once, in no particular order.
func All() []*Program {
	seen := map[*Program]bool{}
	var out []*Program
	for _, p := range index {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// LangOf is the language an interpreter runs ("" when name is not one).
func LangOf(name string) string {
	if p := Lookup(name); p.Is(Interpreter) {
		return p.Lang
	}
	return ""
}

// RunsCode reports a shell or an interpreter: a program whose script
// operand, -c/-e value or stdin is code.
func RunsCode(name string) bool {
	p := Lookup(name)
	return p != nil && p.Kind.Any(Shell|Interpreter)
}

// sub reports whether args start with words (subcommand matching).
func sub(args []string, words ...string) bool {
	if len(args) < len(words) {
		return false
	}
	for i, w := range words {
		if args[i] != w {
			return false
		}
	}
	return true
}

// Operands are the arguments that do not start with "-".
func Operands(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

func anyPrefix(args []string, prefixes ...string) bool {
	for _, a := range args {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

func has(args []string, want ...string) bool {
	for _, a := range args {
		for _, w := range want {
			if a == w {
				return true
			}
		}
	}
	return false
}

// HasShortFlag matches c inside a cluster of short options (-rp, -di).
func HasShortFlag(args []string, c byte) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], c) >= 0 {
			return true
		}
	}
	return false
}
