package programs

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Launchers as data (issue 19: a launcher's operand is a command). Every
// launcher has one shape: [its global options] [SUBCOMMAND] its own
// options (which take values: Opts), Skip operands of its own (a version,
// a toolchain, a lock file, a container), VAR=value words when Env, then
// the command: after "--", after one of Exec (xterm -e), or the first
// word left. Dash: the command is only after "--" or Exec (guix shell
// PKGS -- CMD: the words before are packages). A command of one word
// holding blanks is shell text (xterm -e 'rm -rf x'); Shell: always.
// Adding a launcher is one line of the table below.

// Grammar is a launcher's command line.
type Grammar struct {
	Sub   []string // the subcommands that launch ("exec", "x"; "-E env" is two words); none: the program itself
	Opts  Spec     // its own options
	Skip  int      // operands before the command
	Env   bool     // VAR=value words before the command are its environment
	Exec  []string // options after which the command's words follow (-e, --command)
	Dash  bool     // the command only follows "--" or an Exec option
	Shell bool     // the command's words are shell text
	Keep  bool     // the launcher is judged as a command too (Launched.Keep): npx, a terminal's -display
}

// Launch is a Program.Launch for g.
func (g Grammar) Launch(a []string) (Launched, bool) {
	i := 0
	if len(g.Sub) > 0 {
		k, ok := g.sub(a)
		if !ok {
			return Launched{}, false
		}
		i = k
	}
	if g.Dash {
		for k := i; k < len(a); k++ {
			if a[k] == "--" || slices.Contains(g.Exec, a[k]) {
				return g.at(a, k+1)
			}
		}
		return Launched{}, false
	}
	for i < len(a) {
		x := a[i]
		if x == "--" {
			i++
			break
		}
		if slices.Contains(g.Exec, x) {
			return g.at(a, i+1)
		}
		if len(x) < 2 || x[0] != '-' {
			break
		}
		i = g.Opts.next(a, i)
	}
	for n := 0; n < g.Skip && i < len(a); n++ {
		if i++; i < len(a) && a[i] == "--" {
			i++
		}
	}
	for g.Env && i < len(a) && isAssignWord(a[i]) {
		i++
	}
	return g.at(a, i)
}

// sub returns the index after the launching subcommand: at the start, or
// after global options.
func (g Grammar) sub(a []string) (int, bool) {
	for _, k := range []int{0, skipOpts(a, g.Opts)} {
		for _, s := range g.Sub {
			w := strings.Fields(s)
			if k+len(w) <= len(a) && slices.Equal(a[k:k+len(w)], w) {
				return k + len(w), true
			}
		}
	}
	return 0, false
}

func (g Grammar) at(a []string, i int) (Launched, bool) {
	if i >= len(a) {
		return Launched{}, false
	}
	shell := g.Shell || i+1 == len(a) && strings.ContainsAny(a[i], " \t\n;|&")
	return Launched{At: i, Shell: shell, Keep: g.Keep}, true
}

// next is the index after the option at a[i].
func (s Spec) next(a []string, i int) int {
	x := a[i]
	if strings.HasPrefix(x, "--") {
		if strings.Contains(x, "=") {
			return i + 1
		}
		return i + 1 + s.width(x[2:])
	}
	for k := 1; k < len(x); k++ {
		if strings.IndexByte(s.Optional, x[k]) >= 0 {
			return i + 1
		}
		if s.shortTakes(x[k]) {
			if k+1 < len(x) {
				return i + 1
			}
			return i + 2
		}
	}
	return i + 1
}

// isAssignWord: NAME=value, as env and cross-env read it.
func isAssignWord(w string) bool {
	k := strings.IndexByte(w, '=')
	if k <= 0 {
		return false
	}
	for j := 0; j < k; j++ {
		c := w[j]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// operandsCode is a CodeIn for runners whose every operand is a command
// line of its own (pee 'CMD' 'CMD', concurrently 'CMD' 'CMD'); npm:SCRIPT
// is concurrently's npm run SCRIPT.
func operandsCode(via string, sp Spec) func([]string) []Code {
	return func(a []string) []Code {
		var out []Code
		for i := 0; i < len(a); {
			x := a[i]
			if x == "--" {
				for k := i + 1; k < len(a); k++ {
					out = append(out, operandCode(a[k], k, via))
				}
				break
			}
			if len(x) > 1 && x[0] == '-' {
				i = sp.next(a, i)
				continue
			}
			out = append(out, operandCode(x, i, via))
			i++
		}
		return out
	}
}

func operandCode(x string, i int, via string) Code {
	if s, ok := strings.CutPrefix(x, "npm:"); ok && !strings.ContainsAny(s, " \t;|&") {
		x = "npm run " + s
	}
	return Code{Arg: i, Text: x, Via: via}
}

// launchers: the table. A name the model has already (an environment
// manager, a package manager) gets its Launch here.
var launchers = map[string]Grammar{
	"bwrap": {Opts: Spec{Long: []string{"args", "userns", "userns2", "pidns", "uid", "gid", "hostname", "chdir", "unsetenv",
		"lock-file", "sync-fd", "info-fd", "json-status-fd", "block-fd", "userns-block-fd", "seccomp", "add-seccomp-fd",
		"exec-label", "file-label", "remount-ro", "proc", "dev", "tmpfs", "mqueue", "dir", "perms", "size", "cap-add", "cap-drop"},
		Two: []string{"bind", "bind-try", "dev-bind", "dev-bind-try", "ro-bind", "ro-bind-try", "file", "bind-data", "ro-bind-data",
			"symlink", "chmod", "setenv", "bind-fd", "ro-bind-fd"}}},
	"perf":            {Sub: []string{"stat", "record", "trace", "mem", "c2c", "kmem", "sched record", "lock record"}, Opts: S("eoCGpturxIDFc", "event", "output", "cpu", "cgroup", "pid", "tid", "uid", "repeat", "field-separator", "interval-print", "delay", "freq", "call-graph", "mmap-pages", "filter").Runs("pre", RunsShell, "post", RunsShell)},
	"systemd-inhibit": {Opts: S("", "what", "who", "why", "mode")},
	"faketime":        {Opts: S("").Runs("date-prog", RunsShell), Skip: 1},
	"torsocks":        {Opts: S("upaP", "user", "pass", "address", "port")},
	"proxychains4":    {Opts: S("f")},
	"proxychains":     {Opts: S("f")},
	"ssh-agent":       {Opts: S("aEtPO")},
	"lckdo":           {Opts: S("W"), Skip: 1},
	"ifne":            {},
	"cross-env":       {Env: true},
	"cross-env-shell": {Env: true, Shell: true},
	"env-cmd":         {Opts: S("fer", "file", "environments", "rc-file")},
	"cmake":           {Sub: []string{"-E env"}, Opts: S("", "modify"), Env: true},
	"mise":            {Sub: []string{"exec", "x"}, Dash: true},
	"asdf":            {Sub: []string{"exec"}},
	"pyenv":           {Sub: []string{"exec"}},
	"rbenv":           {Sub: []string{"exec"}},
	"nodenv":          {Sub: []string{"exec"}},
	"goenv":           {Sub: []string{"exec"}},
	"jenv":            {Sub: []string{"exec"}},
	"direnv":          {Sub: []string{"exec"}, Skip: 1},
	"rustup":          {Sub: []string{"run"}, Opts: S("", "install"), Skip: 1},
	"nvm":             {Sub: []string{"exec", "run"}, Opts: S("", "silent"), Skip: 1},
	"npx":             {Opts: S("pc", "package", "call", "cache", "userconfig", "registry"), Keep: true},
	"npm":             {Sub: []string{"exec", "x", "dlx"}, Opts: S("pcw", "package", "call", "workspace", "prefix", "filter", "dir"), Keep: true},
	"distrobox":       {Sub: []string{"enter"}, Exec: []string{"-e", "--exec"}, Dash: true},
	"guix":            {Sub: []string{"shell", "environment"}, Dash: true},
	"zellij":          {Sub: []string{"run", "r"}, Opts: S("ndc", "name", "direction", "cwd", "width", "height", "x", "y")},
	"wezterm":         {Sub: []string{"start", "ssh", "connect"}, Opts: S("", "cwd", "class", "workspace", "position", "domain", "config-file", "config")},
	"gnome-terminal":  {Exec: []string{"-x", "--execute"}, Dash: true, Keep: true},
	"xterm":           {Exec: []string{"-e"}, Dash: true, Keep: true},
	"alacritty":       {Exec: []string{"-e", "--command"}, Dash: true, Keep: true},
	"konsole":         {Exec: []string{"-e"}, Dash: true, Keep: true},
	"xfce4-terminal":  {Exec: []string{"-x", "--execute"}, Dash: true, Keep: true},
	"tilix":           {Exec: []string{"-x"}, Dash: true, Keep: true},
	"terminator":      {Exec: []string{"-x", "--execute"}, Dash: true, Keep: true},
	"foot":            {Keep: true, Opts: S("cCtTaWwsLoD", "config", "term", "title", "app-id", "window-size-pixels", "window-size-chars", "server", "log-level", "override", "working-directory")},
	"kitty":           {Keep: true, Opts: S("cdoT", "config", "directory", "override", "title", "class", "name", "session", "listen-on", "start-as", "os-window-tag", "instance-group", "watcher", "single-instance", "wait-for-single-instance-window-close")},
	"systemd-cat":     {Opts: S("tp", "identifier", "priority", "stderr-priority", "level-prefix", "namespace")},
	// setpriv runs its command with other ids, capabilities or a seccomp filter
	"setpriv": {Opts: S("", "groups", "inh-caps", "ambient-caps", "bounding-set", "reuid", "regid", "ruid", "euid", "rgid", "egid",
		"securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "seccomp-filter")},
	// pueue add CMD...: the daemon runs the words joined, through sh -c
	"pueue": {Sub: []string{"add"}, Opts: S("dglwa", "delay", "group", "label", "working-directory", "after", "priority"), Shell: true},
	// pipx run [--spec PKG] APP ARGS: APP is the package's command (pipx
	// run --spec x python -c CODE runs python); the package's own rules
	// read it too
	"pipx": {Sub: []string{"run"}, Opts: S("", "spec", "python", "index-url", "pip-args", "backend"), Keep: true},
}

// Runners whose operands are each a command line, and programs whose
// options hand them code (their grammar types it: Spec.Runs).
var _ = register(
	&Program{Name: "split", Opts: S("abClnt", "suffix-length", "additional-suffix", "bytes", "line-bytes", "lines",
		"number", "separator").Runs("filter", RunsShell)},
	&Program{Name: "yt-dlp", Names: []string{"youtube-dl"}, Kind: Downloader | NetSender, Opts: S("ofa", "output", "format", "batch-file").Runs(
		"exec", RunsShell, "exec-before-download", RunsShell)},
	&Program{Name: "pandoc", Opts: S("ofrtdM", "output", "from", "read", "to", "write", "defaults", "metadata", "template", "css").Runs(
		"filter", RunsShell, "F", RunsShell, "lua-filter", RunsLua, "L", RunsLua)},
	&Program{Name: "ugrep", Names: []string{"ug"}, Kind: Reader | Pattern, Opts: S("efABCmdD", "regexp", "file", "after-context",
		"before-context", "context", "max-count").Runs("filter", RunsFilter)},
	&Program{Name: "latexmk", Opts: S("").Runs("e", RunsPerl, "pdflatex", RunsShell, "latex", RunsShell, "lualatex", RunsShell,
		"xelatex", RunsShell, "bibtex", RunsShell, "biber", RunsShell, "makeindex", RunsShell)},
	&Program{Name: "pee", Kind: Runner, CodeIn: operandsCode("pee", S(""))},
	&Program{Name: "concurrently", Kind: Runner, CodeIn: operandsCode("concurrently",
		S("nckpslrP", "names", "prefix-colors", "prefix", "success", "restart-tries", "restart-after", "timestamp-format", "prefix-length", "max-processes", "name-separator", "handle-input", "default-input-target", "teardown"))},
)

func init() {
	for name, g := range launchers {
		p := Lookup(name)
		if p == nil || p.Name != name {
			p = &Program{Name: name}
			register(p)
		}
		if p.Launch != nil {
			panic("programs: " + name + " has a Launch already")
		}
		p.Kind |= Runner
		p.Launch = g.Launch
		if len(p.Opts.Short)+len(p.Opts.Long)+len(p.Opts.Code) == 0 {
			p.Opts = g.Opts // its code options (perf --pre CMD) are read too
		}
	}
}

// HasCode reports that the program's arguments may hold code: a CodeIn,
// or options typed as code in its grammar.
func (p *Program) HasCode() bool { return p != nil && (p.CodeIn != nil || len(p.Opts.Code) > 0) }

// Codes is the code args hold: CodeIn's, and the values of the options
// the grammar types as code.
func (p *Program) Codes(args []string) []Code {
	var out []Code
	if p.CodeIn != nil {
		out = p.CodeIn(args)
	}
	return append(out, OptionCode(args, p.Opts, p.Name)...)
}

// cargoCode: cargo --config KEY=VALUE where KEY names a program cargo
// runs (a target's runner or linker, build.rustc-wrapper, build.rustc):
// the value is a TOML string or array of words.
func cargoCode(a []string) []Code {
	var out []Code
	vals, at := optValues(a, "--config")
	for k, v := range vals {
		key, val, ok := strings.Cut(v, "=")
		if !ok {
			continue // a file of settings
		}
		key = strings.ToLower(strings.TrimSpace(key))
		last := key[strings.LastIndexByte(key, '.')+1:]
		switch last {
		case "runner", "linker", "rustc-wrapper", "rustc-workspace-wrapper", "rustc", "rustdoc", "credential-provider":
		default:
			continue
		}
		val = strings.TrimSpace(val)
		val = strings.Trim(val, "[]")
		var words []string
		for _, w := range strings.Split(val, ",") {
			if w = strings.Trim(strings.TrimSpace(w), `'"`); w != "" {
				words = append(words, w)
			}
		}
		if len(words) > 0 {
			out = append(out, Code{Arg: at[k], Text: quoteArgv(words), Via: "cargo --config " + key})
		}
	}
	return out
}

// mvnCode: mvn exec:exec runs -Dexec.executable with -Dexec.args.
func mvnCode(a []string) []Code {
	if !slices.ContainsFunc(a, func(x string) bool { return strings.HasSuffix(x, ":exec") }) {
		return nil
	}
	exe, args, at := "", "", -1
	for i, x := range a {
		if v, ok := strings.CutPrefix(x, "-Dexec.executable="); ok {
			exe, at = v, i
		}
		if v, ok := strings.CutPrefix(x, "-Dexec.args="); ok {
			args = v
		}
	}
	if exe == "" {
		return nil
	}
	return []Code{{Arg: at, Text: shellQuote(exe) + " " + args, Via: "mvn exec:exec"}}
}

// flatpakCode: flatpak run [options] --command=CMD APP ARGS runs CMD ARGS
// in the app's sandbox (which sees the home directory by default).
func flatpakCode(a []string) []Code {
	if len(a) == 0 || a[0] != "run" {
		return nil
	}
	cmd, at := "", -1
	for i := 1; i < len(a); i++ {
		x := a[i]
		if v, ok := strings.CutPrefix(x, "--command="); ok {
			cmd, at = v, i
			continue
		}
		if x == "--command" && i+1 < len(a) {
			cmd, at = a[i+1], i+1
			i++
			continue
		}
		if strings.HasPrefix(x, "-") {
			continue
		}
		if cmd == "" {
			return nil // the app's own command
		}
		return []Code{{Arg: at, Text: quoteArgv(append([]string{cmd}, a[i+1:]...)), Via: "flatpak run --command"}}
	}
	return nil
}

// rakeCode: rake -e CODE (-E: before the tasks) runs Ruby code; rake's sh
// "CMD" runs CMD through a shell.
func rakeCode(a []string) []Code {
	var out []Code
	for _, o := range []string{"-e", "-E", "--execute", "--execute-continue", "-p", "--execute-print"} {
		vals, at := optValues(a, o)
		for k, v := range vals {
			out = append(out, Code{Arg: at[k], Text: "ruby -e " + shellQuote(v), Via: "rake " + o})
			for _, c := range callStrings(v, "sh", "system", "ruby") {
				out = append(out, Code{Arg: at[k], Text: c, Via: "rake sh"})
			}
		}
	}
	return out
}

// terminalCode: a terminal emulator's -e STRING is a command line its
// shell runs (gnome-terminal -e 'CMD', konsole -e, xfce4-terminal -e).
func terminalCode(a []string) []Code { return codeOpts(a, "terminal", "-e", "--command") }

func init() {
	chainCode("cargo", cargoCode)
	for _, n := range []string{"gnome-terminal", "xfce4-terminal", "terminator"} {
		chainCode(n, terminalCode)
	}
}

// The dynamic loader runs the program it is given (ld-linux-x86-64.so.2
// /bin/rm -rf x); --list and --verify only read it. Lookup finds it by
// any of its names (ld-linux-*.so.N, ld-musl-*.so.1).
var ldsoGrammar = Grammar{Opts: S("", "library-path", "preload", "argv0", "audit", "inhibit-rpath", "glibc-hwcaps-prepend", "glibc-hwcaps-mask")}

func ldsoLaunch(a []string) (Launched, bool) {
	if has(a, "--list", "--verify", "--list-tunables", "--list-diagnostics", "--help", "--version") {
		return Launched{}, false
	}
	return ldsoGrammar.Launch(a)
}

// ldsoName reports a name of the dynamic loader.
func ldsoName(n string) bool {
	return n == "ld.so" || strings.HasPrefix(n, "ld-") && strings.Contains(n, ".so")
}

// coreutils is a multicall binary: coreutils --coreutils-prog=rm ARGS
// (GNU) or coreutils rm ARGS (uutils) runs that tool.
func coreutilsLaunch(a []string) (Launched, bool) {
	if slices.ContainsFunc(a, func(x string) bool { return strings.HasPrefix(x, "--coreutils-prog") }) {
		return Launched{}, false // CodeIn has it
	}
	return Grammar{}.Launch(a)
}

func coreutilsCode(a []string) []Code {
	for i, x := range a {
		prog, ok := strings.CutPrefix(x, "--coreutils-prog=")
		if !ok && x == "--coreutils-prog" && i+1 < len(a) {
			prog, ok = a[i+1], true
			i++
		}
		if ok && prog != "" {
			return []Code{{Arg: i, Text: quoteArgv(append([]string{prog}, a[i+1:]...)), Via: "coreutils --coreutils-prog"}}
		}
	}
	return nil
}

// fzf's --bind actions execute(CMD), execute-silent, become, reload,
// preview, change-preview and transform run CMD through a shell, and so
// does --preview CMD; the action's argument is closed by the delimiter
// that opened it, or runs to the end after a colon.
var fzfActionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:execute(?:-silent|-multi)?|become|reload(?:-sync)?|(?:change-)?preview|transform(?:-[a-z-]+)?)([(\[{<~!@#$%^&*;/|:])`)
})

var fzfClose = map[byte]byte{'(': ')', '[': ']', '{': '}', '<': '>'}

func fzfCode(a []string) []Code {
	var out []Code
	vals, at := optValues(a, "--bind")
	for k, v := range vals {
		for _, m := range fzfActionRe().FindAllStringSubmatchIndex(v, 16) {
			open := v[m[2]]
			rest := v[m[3]:]
			if open != ':' {
				cl, ok := fzfClose[open]
				if !ok {
					cl = open
				}
				if e := strings.IndexByte(rest, cl); e >= 0 {
					rest = rest[:e]
				}
			}
			if strings.TrimSpace(rest) != "" {
				out = append(out, Code{Arg: at[k], Text: rest, Via: "fzf --bind"})
			}
		}
	}
	return out
}

var _ = register(
	&Program{Name: "ld.so", Kind: Runner, Launch: ldsoLaunch},
	&Program{Name: "coreutils", Kind: Runner, Launch: coreutilsLaunch, CodeIn: coreutilsCode},
	&Program{Name: "fzf", Names: []string{"sk"}, Opts: S("qfd", "query", "filter", "delimiter", "nth", "with-nth", "height", "layout", "prompt",
		"header", "expect", "tiebreak", "color", "margin", "padding", "border", "preview-window", "bind", "history", "tac").Runs("preview", RunsShell),
		CodeIn: fzfCode},
)

var _ = register(
	// bash's enable -f FILE NAME loads a builtin from a shared object: the
	// file is code handed to the shell (HANDED-CODE-TEMP reads where it is)
	&Program{Name: "enable", Kind: NonReader, Opts: S("").Runs("f", RunsShell)},
	&Program{Name: "mvn", Names: []string{"mvnw", "mvnd"}, Kind: TaskRunner, CodeIn: mvnCode},
	&Program{Name: "flatpak", Kind: Runner, CodeIn: flatpakCode},
)
