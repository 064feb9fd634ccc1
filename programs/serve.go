package programs

import "strings"

// File servers and tunnels: programs that put local files or ports on the
// network. A server is judged by the directory it serves (its root: the
// current directory unless an option or operand names one); a tunnel by
// the fact that it opens a local port to the internet.

// serveRoots says, per program (its Lookup name or a package npx runs),
// whether the arguments start a file server and which directory it serves:
// "" for the current directory.
var serveRoots = map[string]func(args []string) (string, bool){
	// python -m http.server [PORT] [-d DIR] [-b ADDR]; python2 -m SimpleHTTPServer
	"python": func(args []string) (string, bool) {
		valued := Lookup("python").Opts.Short // -W, -X, -Q take a value
		for i := 0; i < len(args); i++ {
			a := args[i]
			var mod string
			var rest []string
			switch {
			case len(a) == 2 && a[0] == '-' && strings.IndexByte(valued, a[1]) >= 0:
				i++ // python3 -X dev -m http.server
				continue
			case a == "-m" && i+1 < len(args):
				mod, rest = args[i+1], args[i+2:]
			case strings.HasPrefix(a, "-m") && len(a) > 2:
				mod, rest = a[2:], args[i+1:]
			case !strings.HasPrefix(a, "-"):
				return "", false // a script runs, not a module
			default:
				continue
			}
			switch mod {
			case "http.server":
				o := Parse(rest, S("db", "directory", "bind", "protocol"))
				return first(o.Values["d"], o.Long["directory"]), true
			case "SimpleHTTPServer", "CGIHTTPServer":
				return "", true
			case "pyftpdlib": // an FTP server of -d DIR (the current directory)
				o := Parse(rest, S("idpPurD", "interface", "directory", "port", "username", "password", "range", "nat-address"))
				return first(o.Values["d"], o.Long["directory"]), true
			case "uploadserver": // http.server's options, and it takes uploads
				o := Parse(rest, S("db", "directory", "bind", "basic-auth", "basic-auth-upload", "theme", "server-certificate", "client-certificate"))
				return first(o.Values["d"], o.Long["directory"]), true
			}
			return "", false
		}
		return "", false
	},
	// php -S ADDR [-t DOCROOT]
	"php": func(args []string) (string, bool) {
		o := Parse(args, S("Stcdfz"))
		if _, ok := o.Values["S"]; !ok {
			return "", false
		}
		return o.Values["t"], true
	},
	// ruby -run -e httpd [DIR] [-p PORT]
	"ruby": func(args []string) (string, bool) {
		for i := 0; i+1 < len(args); i++ {
			if args[i] == "-e" && args[i+1] == "httpd" && hasWord(args[:i], "-run", "-run-e") {
				return firstOperand(args[i+2:], S("pb", "port", "bind-address")), true
			}
		}
		return "", false
	},
	// busybox httpd [-h HOME]: an applet of busybox (a runner, unwrapped);
	// Apache's httpd -h prints its options and takes no value.
	"httpd": func(args []string) (string, bool) {
		o := Parse(args, S("hpcruU"))
		h, ok := o.Values["h"]
		return h, ok && h != ""
	},
	// npm's http-server [PATH] and serve [DIR], miniserve [PATH], darkhttpd DIR
	"http-server": operandRoot(S("pacaeSCKtoUP", "port", "address", "cors", "proxy", "ext", "cert", "key")),
	"serve":       operandRoot(S("lpc", "listen", "config")),
	"miniserve":   operandRoot(S("ipaqc", "interfaces", "port", "auth", "title", "color-scheme")),
	"dufs":        operandRoot(S("bpa", "bind", "port", "auth", "path-prefix", "config", "tls-cert", "tls-key", "log-format", "assets")),
	"live-server": operandRoot(S("", "port", "host", "open", "ignore", "mount", "proxy", "middleware", "entry-file", "watch", "htpasswd")),
	// filebrowser -r DIR (or --root): a web file manager, uploads and all
	"filebrowser": func(args []string) (string, bool) {
		o := Parse(args, S("rapdbcl", "root", "address", "port", "database", "baseurl", "config", "log"))
		return first(o.Values["r"], o.Long["root"]), len(o.Pos) == 0 || o.Pos[0] == ""
	},
	"darkhttpd": operandRoot(S("", "port", "addr", "maxconn", "log", "chroot", "index", "mimetypes", "uid", "gid", "pidfile")),
	// caddy file-server [--root DIR]; updog [-d DIR]; webfsd -r DIR
	"caddy": func(args []string) (string, bool) {
		if len(args) == 0 || args[0] != "file-server" {
			return "", false
		}
		o := Parse(args[1:], S("rl", "root", "listen", "domain"))
		return first(o.Values["r"], o.Long["root"]), true
	},
	"updog": func(args []string) (string, bool) {
		o := Parse(args, S("dp", "directory", "port", "password"))
		return first(o.Values["d"], o.Long["directory"]), true
	},
	"webfsd": func(args []string) (string, bool) {
		o := Parse(args, S("rpfn"))
		return o.Values["r"], true
	},
	// static-web-server [-d|--root DIR] (./public when none is named)
	"static-web-server": func(args []string) (string, bool) {
		o := Parse(args, S("dpacwgjx", "root", "port", "host", "config-file", "page404", "page50x", "log-level", "threads-multiplier"))
		if r := first(o.Values["d"], o.Long["root"]); r != "" {
			return r, true
		}
		return "./public", !hasWord(args, "-h", "--help", "-V", "--version")
	},
	// browser-sync start --server [DIR] (-s): a static server of DIR, the
	// current directory when none follows
	"browser-sync": func(args []string) (string, bool) {
		if len(args) == 0 || args[0] != "start" {
			return "", false
		}
		for i, a := range args[1:] {
			if v, ok := strings.CutPrefix(a, "--server="); ok {
				return v, true
			}
			if a == "--server" || a == "-s" {
				if i+2 < len(args) && !strings.HasPrefix(args[i+2], "-") {
					return args[i+2], true
				}
				return "", true
			}
		}
		return "", false
	},
	// twistd [-n] web --path DIR
	"twistd": func(args []string) (string, bool) {
		for i, a := range args {
			if a == "web" {
				o := Parse(args[i+1:], S("", "path", "port", "listen"))
				if p, ok := o.Long["path"]; ok {
					return p, true
				}
				return "", false
			}
		}
		return "", false
	},
}

// npxRunners run a package's command: npx -y http-server ~ is http-server ~.
var npxRunners = map[string]bool{"npx": true, "bunx": true, "pnpx": true}

// Serves reports whether name with args starts a server of local files and
// the directory it serves ("" for the current directory).
func Serves(name string, args []string) (root string, ok bool) {
	if npxRunners[name] {
		o := Parse(args, S("p", "package", "call"))
		if len(o.Pos) == 0 {
			return "", false
		}
		pkg := o.Pos[0]
		if at := strings.LastIndexByte(pkg, '@'); at > 0 {
			pkg = pkg[:at] // http-server@14
		}
		for i, a := range args {
			if a == o.Pos[0] {
				return Serves(pkg, args[i+1:])
			}
		}
		return "", false
	}
	key := name
	if p := Lookup(name); p != nil {
		key = p.Name
	}
	f := serveRoots[key]
	if f == nil {
		return "", false
	}
	return f(args)
}

// Tunnels reports whether name with args opens a local port to the network
// from outside: ssh -R (a remote forward), ngrok, cloudflared tunnel,
// localtunnel, bore.
func Tunnels(name string, args []string) bool {
	if npxRunners[name] { // npx localtunnel --port 22
		o := Parse(args, S("p", "package", "call"))
		if len(o.Pos) == 0 {
			return false
		}
		for i, a := range args {
			if a == o.Pos[0] {
				pkg, _, _ := strings.Cut(strings.TrimPrefix(a, "@"), "@")
				return pkg != "" && Tunnels(pkg, args[i+1:])
			}
		}
		return false
	}
	switch name {
	case "zrok": // zrok share public|private: a local port through zrok's relay
		return len(args) > 1 && args[0] == "share" && (args[1] == "public" || args[1] == "private")
	case "devtunnel": // devtunnel host: a local port through Microsoft's relay
		return len(args) > 0 && args[0] == "host"
	case "inlets", "inlets-pro": // inlets client --upstream: a local service published on the server
		return hasWord(args, "client") && !hasWord(args, "--help", "-h")
	case "code", "code-insiders": // code tunnel: this machine's editor and terminal through a relay
		return len(args) > 0 && args[0] == "tunnel" && !hasWord(args, "--help", "-h", "status", "kill", "prune", "unregister", "user")
	case "frpc": // frp's client publishes local ports through its server
		return !hasWord(args, "-v", "--version", "-h", "--help", "verify")
	}
	switch Lookup(name).nameOr(name) {
	case "tailscale": // tailscale funnel: a local port on the public internet
		// tailscale serve: the same to every device of the tailnet
		return len(args) > 0 && (args[0] == "funnel" || args[0] == "serve") && !hasWord(args, "status", "reset", "--help", "off")
	case "ssh":
		return sshRemoteForward(args)
	case "autossh":
		// autossh -M PORT then ssh's own arguments
		var rest []string
		for i := 0; i < len(args); i++ {
			switch {
			case args[i] == "-M" && i+1 < len(args):
				i++
			case strings.HasPrefix(args[i], "-M"):
			default:
				rest = append(rest, args[i])
			}
		}
		return sshRemoteForward(rest)
	case "gh": // gh codespace ports visibility PORT:public: a codespace's port open to anyone
		o := Parse(args, S("cR", "codespace", "repo", "repo-owner"))
		if len(o.Pos) > 2 && (o.Pos[0] == "codespace" || o.Pos[0] == "cs") && o.Pos[1] == "ports" && o.Pos[2] == "visibility" {
			for _, v := range o.Pos[3:] {
				if strings.HasSuffix(strings.ToLower(v), ":public") {
					return true
				}
			}
		}
		return false
	case "ngrok":
		return len(args) > 0 && (args[0] == "http" || args[0] == "tcp" || args[0] == "tls" || args[0] == "start")
	case "cloudflared":
		return hasWord(args, "tunnel")
	case "lt", "localtunnel", "bore":
		return len(args) > 0
	case "chisel": // chisel client HOST R:socks: the other end reaches in
		if len(args) > 0 && args[0] == "client" {
			for _, a := range args[1:] {
				if strings.HasPrefix(a, "R:") {
					return true
				}
			}
		}
		return len(args) > 0 && args[0] == "server" && hasWord(args, "--reverse", "--socks5")
	}
	return false
}

func (p *Program) nameOr(name string) string {
	if p == nil {
		return name
	}
	return p.Name
}

func operandRoot(s Spec) func([]string) (string, bool) {
	return func(args []string) (string, bool) { return firstOperand(args, s), true }
}

func firstOperand(args []string, s Spec) string {
	if o := Parse(args, s); len(o.Pos) > 0 {
		return o.Pos[0]
	}
	return ""
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func hasWord(args []string, ws ...string) bool {
	for _, a := range args {
		for _, w := range ws {
			if a == w {
				return true
			}
		}
	}
	return false
}

// sshRemoteForward reports ssh arguments that open a port on the other
// host back to this one: -R, or -o RemoteForward (-o 'RemoteForward
// 8080 localhost:80', -oRemoteForward=...), the key in any case.
func sshRemoteForward(args []string) bool {
	sp := Lookup("ssh").Opts
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return false // the host: what follows is the remote command
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			if !sp.shortTakes(c) {
				continue
			}
			v := a[k+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if c == 'R' {
				return true
			}
			key := strings.TrimSpace(v)
			if n := strings.IndexAny(key, "= \t"); n >= 0 {
				key = key[:n]
			}
			if c == 'o' && strings.EqualFold(key, "RemoteForward") {
				return true
			}
			break
		}
	}
	return false
}
