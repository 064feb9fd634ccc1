package programs

import (
	"path"
	"slices"
	"strings"
)

// Servers that hand a shell or a control API to whoever reaches an address
// (issue 19 class 8), code run straight from the network, and environment
// variables that load code into every program started under them.

// PublicAddr reports a bind address that is not loopback: 0.0.0.0, ::, *,
// a public or private IP, a host name other than localhost. "" is not
// public here; each server says what its default is.
func PublicAddr(host string) bool {
	h := strings.Trim(strings.TrimSpace(host), "[]'\"")
	if h == "" {
		return false
	}
	if strings.EqualFold(h, "localhost") || strings.HasPrefix(h, "unix:") || strings.HasPrefix(h, "/") {
		return false
	}
	// loopback by hand: the hook imports no net package
	if strings.HasPrefix(h, "127.") || h == "::1" || h == "0:0:0:0:0:0:0:1" || strings.HasPrefix(strings.ToLower(h), "::ffff:127.") {
		return false
	}
	return true // 0.0.0.0, ::, *, another IP, a host name
}

// hostOf is the host of HOST:PORT, [V6]:PORT, a bare port (""), or
// scheme://HOST:PORT.
func hostOf(s string) string {
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	s = strings.TrimSuffix(s, "/")
	if strings.HasPrefix(s, "[") {
		if end := strings.IndexByte(s, ']'); end > 0 {
			return s[1:end]
		}
	}
	if strings.Count(s, ":") > 1 {
		return s // a bare IPv6 address
	}
	h, _, ok := strings.Cut(s, ":")
	if !ok {
		if strings.Trim(s, "0123456789") == "" {
			return "" // a port alone
		}
		return s
	}
	return h
}

// listOptValues returns the values of a long or short option in its spellings
// (--name=V, --name V, -x V, -xV) among args.
func listOptValues(args []string, names ...string) []string {
	var out []string
	for i, a := range args {
		for _, n := range names {
			switch {
			case a == n && i+1 < len(args):
				out = append(out, args[i+1])
			case strings.HasPrefix(n, "--") && strings.HasPrefix(a, n+"="):
				out = append(out, a[len(n)+1:])
			case len(n) == 2 && n[1] != '-' && len(a) > 2 && strings.HasPrefix(a, n) && a[1] != '-':
				out = append(out, a[2:])
			}
		}
	}
	return out
}

// controlServers say, per program name, what control their arguments hand
// to a non-loopback address ("" for none).
var controlServers = map[string]func(args []string) string{
	// docker run -p 0.0.0.0:5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust:
	// a database anyone who reaches the port logs in to without a password
	"docker": func(a []string) string {
		if len(a) == 0 || a[0] != "run" && a[0] != "create" {
			return ""
		}
		open := false
		for _, p := range listOptValues(a[1:], "-p", "--publish") {
			parts := strings.Split(p, ":")
			open = open || len(parts) == 2 || len(parts) == 3 && (parts[0] == "" || PublicAddr(parts[0]))
		}
		if !open {
			return ""
		}
		for _, e := range listOptValues(a[1:], "-e", "--env") {
			k, v, _ := strings.Cut(e, "=")
			v = strings.ToLower(strings.Trim(v, `"'`))
			switch {
			case k == "POSTGRES_HOST_AUTH_METHOD" && v == "trust",
				(k == "MYSQL_ALLOW_EMPTY_PASSWORD" || k == "MARIADB_ALLOW_EMPTY_ROOT_PASSWORD" || k == "ALLOW_EMPTY_PASSWORD") && (v == "yes" || v == "true" || v == "1"):
				return "a database without a password (" + k + ") published on every interface"
			}
		}
		return ""
	},
	// dockerd -H tcp://0.0.0.0:2375: the Docker API is root on this host
	"dockerd": func(a []string) string {
		for _, h := range listOptValues(a, "-H", "--host") {
			if strings.HasPrefix(h, "tcp://") && (hostOf(h) == "" || PublicAddr(hostOf(h))) {
				return "the Docker API on " + h
			}
		}
		return ""
	},
	// kubectl proxy --address=0.0.0.0: the cluster's API with this
	// user's credentials (the default is 127.0.0.1)
	"kubectl": func(a []string) string {
		for i, x := range a {
			if x == "port-forward" { // kubectl -n prod port-forward ...
				return portForwardPublic(a[i+1:])
			}
			if x == "--" {
				break
			}
		}
		if len(a) == 0 || a[0] != "proxy" {
			return ""
		}
		for _, h := range listOptValues(a[1:], "--address") {
			if PublicAddr(h) {
				return "the Kubernetes API (kubectl proxy) on " + h
			}
		}
		return ""
	},
	// node --inspect=0.0.0.0:9229: the debugger evaluates any code (the
	// default host is 127.0.0.1)
	"node": inspectorPublic,
	"deno": inspectorPublic,
	"bun":  inspectorPublic,
	// sshd -o PermitEmptyPasswords=yes: logins without a password
	"sshd": func(a []string) string {
		for _, o := range listOptValues(a, "-o") {
			k, v, _ := strings.Cut(strings.ReplaceAll(o, " ", "="), "=")
			if strings.EqualFold(k, "PermitEmptyPasswords") && strings.EqualFold(strings.Trim(v, "'\""), "yes") {
				return "ssh logins without a password"
			}
			// a key list of the agent's choosing: a login for whoever holds it
			if v = strings.Trim(v, "'\""); strings.EqualFold(k, "AuthorizedKeysFile") && !strings.HasPrefix(v, ".ssh/") && !strings.HasPrefix(v, "%h/.ssh/") {
				return "ssh logins with the keys of " + v
			}
		}
		return ""
	},
	// redis-server --protected-mode no: with no bind (all interfaces) or
	// a public one, anyone runs commands (CONFIG SET dir + SAVE writes files)
	"redis-server": func(a []string) string {
		off := false
		for _, v := range listOptValues(a, "--protected-mode") {
			off = v == "no"
		}
		if !off {
			return ""
		}
		binds := listOptValues(a, "--bind")
		if len(binds) == 0 {
			return "redis without protected mode on all interfaces"
		}
		for _, b := range binds {
			for _, h := range strings.Fields(b) {
				if PublicAddr(strings.TrimPrefix(h, "-")) {
					return "redis without protected mode on " + h
				}
			}
		}
		return ""
	},
	// telnetd -l /bin/sh (busybox's too): the shell instead of login, for
	// whoever connects
	"telnetd": func(a []string) string {
		for _, l := range listOptValues(a, "-l") {
			if p := Lookup(path.Base(l)); p.Is(Shell) || p.Is(Interpreter) {
				return "a shell without login over telnet (" + l + ")"
			}
		}
		return ""
	},
	// socat TCP-LISTEN:P PTY: a terminal on a listening socket
	"socat": func(a []string) string {
		listen, pty := false, false
		for _, x := range a {
			u := strings.ToUpper(x)
			addr, opts, _ := strings.Cut(u, ",")
			kind, _, _ := strings.Cut(addr, ":")
			if strings.HasSuffix(kind, "-LISTEN") && strings.HasPrefix(kind, "TCP") || strings.HasPrefix(kind, "SCTP") && strings.HasSuffix(kind, "-LISTEN") {
				listen = true
				for _, o := range strings.Split(opts, ",") {
					if b, ok := strings.CutPrefix(o, "BIND="); ok && !PublicAddr(b) {
						listen = false
					}
				}
			}
			if kind == "PTY" || strings.HasPrefix(kind, "PTY,") {
				pty = true
			}
		}
		if listen && pty {
			return "a terminal on a listening socket"
		}
		for _, x := range a {
			u := strings.ToUpper(x)
			if listen && (strings.HasPrefix(u, "UNIX-CONNECT:") || strings.HasPrefix(u, "UNIX-CLIENT:")) && controlSocket(x) {
				return "a control socket on a listening port (" + x[strings.IndexByte(x, ':')+1:] + ")"
			}
		}
		return ""
	},
	// python -m rpyc.cli.rpyc_classic --host HOST: an RPC that runs any
	// code (debugpy is debugEndpoint's)
	"python": func(a []string) string {
		for i := 0; i+1 < len(a); i++ {
			if a[i] == "-m" && strings.HasPrefix(a[i+1], "rpyc") {
				for _, v := range listOptValues(a[i+2:], "--host") {
					if PublicAddr(v) {
						return "rpyc's classic server (runs any code) on " + v
					}
				}
				return ""
			}
		}
		return ""
	},
	// dropbear: an SSH server besides the system's, with the agent's keys
	"dropbear": func(a []string) string {
		if hasWord(a, "-h", "-V") {
			return ""
		}
		return "a second SSH server (dropbear) with the agent's keys"
	},
	// x11vnc -nopw, vncserver -SecurityTypes None: the desktop, no password
	"x11vnc": func(a []string) string {
		if hasWord(a, "-nopw") && !hasWord(a, "-localhost") {
			return "the desktop over VNC without a password"
		}
		return ""
	},
	"vncserver": func(a []string) string {
		for _, v := range listOptValues(a, "-SecurityTypes", "-securitytypes") {
			if strings.EqualFold(v, "none") {
				return "a desktop over VNC without a password"
			}
		}
		return ""
	},
	// xterm -display HOST:N: a terminal on another machine's X server
	"xterm": func(a []string) string {
		for _, v := range listOptValues(a, "-display") {
			if h, _, _ := strings.Cut(v, ":"); h != "" && PublicAddr(h) && h != "unix" {
				return "a terminal on the remote display " + v
			}
		}
		return ""
	},
}

// portForwardPublic: kubectl port-forward --address 0.0.0.0 puts a
// cluster's service on every interface of this machine.
func portForwardPublic(a []string) string {
	for _, v := range listOptValues(a, "--address") {
		for _, h := range strings.Split(v, ",") {
			if PublicAddr(h) {
				return "a cluster's service (kubectl port-forward) on " + h
			}
		}
	}
	return ""
}

// controlSocket reports a socket path that controls this machine (the
// Docker, containerd or Podman API).
func controlSocket(p string) bool {
	for _, s := range []string{"docker.sock", "containerd.sock", "podman.sock", "dockershim.sock", "crio.sock"} {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

func inspectorPublic(a []string) string {
	for _, x := range a {
		for _, o := range []string{"--inspect=", "--inspect-brk=", "--inspect-wait="} {
			if v, ok := strings.CutPrefix(x, o); ok && PublicAddr(hostOf(v)) {
				return "the inspector (runs any code) on " + v
			}
		}
	}
	return ""
}

// ServesControl reports a server that hands a shell or a control API to a
// non-loopback address, and what it hands over.
func ServesControl(name string, args []string) (string, bool) {
	key := name
	if p := Lookup(name); p != nil {
		key = p.Name
	}
	switch name {
	case "utelnetd", "in.telnetd":
		key = "telnetd"
	}
	if what := debugEndpoint(key, args); what != "" {
		return what, true
	}
	f := controlServers[key]
	if f == nil {
		return "", false
	}
	what := f(args)
	return what, what != ""
}

// debugEndpoint reports a debugger or remote-debugging protocol opened on
// a non-loopback address: whoever connects evaluates any code in the
// process. debugpy --listen HOST:PORT (python -m debugpy; a port alone is
// loopback), dlv --listen (":PORT" is every interface), gdbserver
// [HOST]:PORT (the same), rdbg --open --host, a JVM's jdwp agent with
// server=y and address=*:PORT or a public host, --remote-debugging-address
// of any Chromium or Electron program, flask run --debug (Werkzeug's
// console) on a public --host.
func debugEndpoint(name string, args []string) string {
	allIfEmpty := func(v string) bool { h := hostOf(v); return h == "" || PublicAddr(h) }
	debugpy := name == "debugpy"
	for i, a := range args {
		if a == "-m" && i+1 < len(args) && args[i+1] == "debugpy" {
			debugpy = true
		}
		if v, ok := strings.CutPrefix(a, "--remote-debugging-address="); ok && PublicAddr(v) {
			return "the browser's remote debugging protocol (runs any script) on " + v
		}
		if a == "--remote-debugging-address" && i+1 < len(args) && PublicAddr(args[i+1]) {
			return "the browser's remote debugging protocol (runs any script) on " + args[i+1]
		}
		if rest, ok := strings.CutPrefix(a, "-agentlib:jdwp="); ok || strings.HasPrefix(a, "-Xrunjdwp:") {
			if !ok {
				rest = strings.TrimPrefix(a, "-Xrunjdwp:")
			}
			server, addr := false, ""
			for _, kv := range strings.Split(rest, ",") {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "server":
					server = v == "y"
				case "address":
					addr = v
				}
			}
			if h := hostOf(addr); server && (h == "*" || PublicAddr(h)) {
				return "the JVM debugger (jdwp, runs any code) on " + addr
			}
		}
	}
	switch {
	case debugpy:
		for _, v := range listOptValues(args, "--listen") {
			if PublicAddr(hostOf(v)) {
				return "the Python debugger (debugpy, runs any code) on " + v
			}
		}
	case name == "dlv":
		for _, v := range listOptValues(args, "--listen", "-l") {
			if allIfEmpty(v) {
				return "the Go debugger (dlv, runs any code) on " + v
			}
		}
	case name == "gdbserver":
		if ops := Operands(args); len(ops) > 0 && strings.Contains(ops[0], ":") && !strings.HasPrefix(ops[0], "/") && allIfEmpty(ops[0]) {
			return "gdbserver (runs any code) on " + ops[0]
		}
	case name == "rdbg":
		if slices.Contains(args, "--open") || slices.Contains(args, "-O") {
			for _, v := range listOptValues(args, "--host") {
				if PublicAddr(v) {
					return "the Ruby debugger (rdbg, runs any code) on " + v
				}
			}
		}
	case name == "flask":
		if slices.Contains(args, "run") && (slices.Contains(args, "--debug") || slices.Contains(args, "--debugger")) {
			for _, v := range listOptValues(args, "--host", "-h") {
				if PublicAddr(v) {
					return "flask's debugger console (runs any code) on " + v
				}
			}
		}
	}
	return ""
}

// RunsFetched reports a command that runs code it fetches from a URL or a
// repository, and that source: npx/bunx/pnpx URL (or github:o/r), npm
// exec, pnpm dlx, yarn dlx, bun x of one; uvx --from git+URL, uv tool run
// and pipx run of one; deno run URL; go run MODULE@VERSION (a module path
// names its repository's host). A package named in the project's registry
// (npx prettier, uvx ruff) is not this class: its install rules own it.
func RunsFetched(name string, args []string) (string, bool) {
	key := Canon(name)
	switch name {
	case "pnpm", "yarn", "uvx", "pipx", "uv":
		key = name // each its own grammar, whatever the model's family
	}
	switch key {
	case "npx", "bunx", "pnpx":
		return fetchedOperand(args, S("pc", "package", "call"), "-p", "--package")
	case "npm":
		if len(args) > 0 && (args[0] == "exec" || args[0] == "x") {
			return fetchedOperand(args[1:], S("pcw", "package", "call", "workspace"), "-p", "--package")
		}
	case "pnpm", "yarn":
		if len(args) > 0 && args[0] == "dlx" {
			return fetchedOperand(args[1:], S("pc", "package"), "-p", "--package")
		}
	case "bun":
		if len(args) > 0 && args[0] == "x" {
			return fetchedOperand(args[1:], S("p", "package"), "-p", "--package")
		}
	case "uvx", "uv", "pipx":
		a := args
		switch {
		case name == "uvx":
		case len(a) > 1 && a[0] == "tool" && a[1] == "run":
			a = a[2:]
		case len(a) > 0 && a[0] == "run" && name == "pipx":
			a = a[1:]
		default:
			return "", false
		}
		return fetchedOperand(a, S("pw", "from", "spec", "with", "python", "index", "index-url"), "--from", "--spec", "--with")
	case "deno":
		a := args
		if len(a) > 0 && (a[0] == "run" || a[0] == "install" || a[0] == "compile") {
			a = a[1:]
		}
		o := Parse(a, S("rn", "config", "import-map", "location", "seed", "v8-flags", "cert", "name", "root", "output", "lock"))
		if len(o.Pos) > 0 && isURL(o.Pos[0]) {
			return o.Pos[0], true
		}
	case "go":
		if len(args) > 0 && args[0] == "run" {
			o := Parse(args[1:], S("CpOo", "exec", "tags", "mod", "modfile", "overlay", "ldflags", "gcflags", "toolexec", "pkgdir"))
			if len(o.Pos) > 0 {
				m, ver, ok := strings.Cut(o.Pos[0], "@")
				first, _, _ := strings.Cut(m, "/")
				if ok && ver != "" && strings.Contains(first, ".") && !strings.HasPrefix(m, ".") && !strings.HasPrefix(m, "/") {
					return o.Pos[0], true
				}
			}
		}
	}
	return "", false
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// fetchedOperand: the package option's values and the first operand, the
// first of them that names a URL or repository.
func fetchedOperand(args []string, sp Spec, pkgOpts ...string) (string, bool) {
	for _, v := range listOptValues(args, pkgOpts...) {
		if remoteSource(v) {
			return v, true
		}
	}
	if o := Parse(args, sp); len(o.Pos) > 0 && remoteSource(o.Pos[0]) {
		return o.Pos[0], true
	}
	return "", false
}

// EnvLoads returns the files and library directories an environment
// variable makes programs load code from: LD_PRELOAD and LD_AUDIT
// (libraries every dynamically linked program loads first),
// LD_LIBRARY_PATH, PYTHONSTARTUP (run by an interactive python),
// PYTHONPATH, PERL5OPT's -I and PERL5LIB/PERLLIB (with -M, perl loads a
// module from there), RUBYOPT's -r FILE and -I, RUBYLIB, NODE_OPTIONS'
// --require/--import/--loader, NODE_PATH; the JVM's -javaagent: and
// -agentpath: (JAVA_TOOL_OPTIONS, MAVEN_OPTS, ...), DOTNET_STARTUP_HOOKS,
// GCONV_PATH, LUA_INIT=@FILE, start-up files (R_PROFILE_USER, ZDOTDIR,
// IRBRC) and configurations that name programs to run (OPENSSL_CONF's
// engines, AWS_CONFIG_FILE's credential_process, KUBECONFIG's exec, a
// GIT_DIR's hooks, an npmrc's script-shell).
func EnvLoads(name, value string) []string {
	v := strings.Trim(value, "'\"")
	switch name {
	case "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES":
		return strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ' ' })
	case "LD_LIBRARY_PATH", "PYTHONPATH", "PERL5LIB", "PERLLIB", "RUBYLIB", "NODE_PATH":
		return strings.FieldsFunc(v, func(r rune) bool { return r == ':' })
	case "PYTHONSTARTUP", "R_PROFILE_USER", "R_PROFILE", "R_ENVIRON_USER", "ZDOTDIR", "GIT_DIR", "IRBRC",
		"PYTHONUSERBASE", "NPM_CONFIG_USERCONFIG", "npm_config_userconfig":
		// a start-up script, or a place whose files run (a repository's
		// hooks, an npmrc's script-shell): loaded by the program the
		// variable is given to
		if v != "" {
			return []string{v}
		}
	case "DOTNET_STARTUP_HOOKS", "GCONV_PATH", "DOTNET_ADDITIONAL_DEPS":
		return strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ';' })
	case "LUA_INIT", "LUA_INIT_5_1", "LUA_INIT_5_2", "LUA_INIT_5_3", "LUA_INIT_5_4":
		if f, ok := strings.CutPrefix(v, "@"); ok && f != "" {
			return []string{f}
		}
	case "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "GRADLE_OPTS", "JAVA_OPTS", "SBT_OPTS", "ANT_OPTS":
		// -javaagent:JAR[=opts], -agentpath:LIB[=opts]: loaded into every JVM
		var out []string
		for _, x := range strings.Fields(v) {
			for _, o := range []string{"-javaagent:", "-agentpath:"} {
				if p, ok := strings.CutPrefix(x, o); ok {
					p, _, _ = strings.Cut(p, "=")
					out = append(out, p)
				}
			}
		}
		return out
	case "PERL5OPT", "RUBYOPT", "NODE_OPTIONS", "npm_config_node_options", "NPM_CONFIG_NODE_OPTIONS":
		var out []string
		f := strings.Fields(v)
		for i, x := range f {
			for _, o := range []string{"-I", "-r", "--require", "--import", "--loader", "--experimental-loader"} {
				if o == "-r" && name == "PERL5OPT" {
					continue
				}
				switch {
				case x == o && i+1 < len(f):
					out = append(out, f[i+1])
				case strings.HasPrefix(o, "--") && strings.HasPrefix(x, o+"="):
					out = append(out, x[len(o)+1:])
				case len(o) == 2 && len(x) > 2 && strings.HasPrefix(x, o):
					out = append(out, x[2:])
				}
			}
		}
		var paths []string
		for _, p := range out {
			if strings.Contains(p, "/") || strings.HasPrefix(p, "~") {
				paths = append(paths, p) // -rjson loads a library by name
			}
		}
		return paths
	}
	return nil
}

// EnvConfigRuns are, for a variable that names a configuration file, the
// settings of that file that make the program run another one
// (AWS_CONFIG_FILE's credential_process, KUBECONFIG's exec command,
// OPENSSL_CONF's engines and providers loaded from a path): what a rule
// looks for in the file the variable names.
func EnvConfigRuns(name string) []string {
	switch name {
	case "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE":
		return []string{"credential_process", "process"}
	case "KUBECONFIG":
		return []string{"exec:", "command:", "cmd-path:"}
	case "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES":
		return []string{"engines", "dynamic_path", "module", "init"}
	case "DOCKER_CONFIG":
		return []string{"credsStore", "credHelpers"}
	}
	return nil
}

// awkNetShell: a gawk program that opens a network special file
// (/inet/tcp/..., /inet4/, /inet6/) and runs commands: system(), or a
// command pipe (CMD | getline, CMD |& getline, print | CMD) whose command
// is not the socket itself. Commands read from the connection run here:
// a reverse or bind shell. A client that only talks to the socket passes.
func awkNetShell(args []string) bool {
	prog, _ := awkProgram(args)
	if !strings.Contains(prog, "/inet/") && !strings.Contains(prog, "/inet4/") && !strings.Contains(prog, "/inet6/") {
		return false
	}
	if strings.Contains(prog, "system(") || strings.Contains(prog, "system (") {
		return true
	}
	sockets := map[string]bool{}
	for _, m := range awkAssignRe().FindAllStringSubmatch(prog, -1) {
		sockets[m[1]] = true
	}
	for _, m := range awkPipeRe().FindAllStringSubmatch(prog, -1) {
		if !sockets[m[1]] {
			return true // c |& getline, c | getline: c runs as a command
		}
	}
	for _, m := range awkPrintPipeRe().FindAllStringSubmatch(prog, -1) {
		if !sockets[m[1]] {
			return true // print ... | c
		}
	}
	return false
}

var (
	awkAssignRe    = lazy(`([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"/inet[46]?/`)
	awkPipeRe      = lazy(`([A-Za-z_][A-Za-z0-9_]*)\s*\|&?\s*getline`)
	awkPrintPipeRe = lazy(`print[f]?\b[^;}|]*\|&?\s*([A-Za-z_][A-Za-z0-9_]*)`)
)

func init() {
	if p := Lookup("awk"); p.Attaches == nil {
		p.Attaches = awkNetShell
	}
}
