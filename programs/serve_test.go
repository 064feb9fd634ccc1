package programs

import (
	"strings"
	"testing"
)

func TestServes(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		root string
		ok   bool
	}{
		{"python3 -m http.server 8000", "", true},
		{"python3 -m http.server -d /srv 8000", "/srv", true},
		{"python3 -u -mhttp.server --directory=~ 80", "~", true},
		{"python2 -m SimpleHTTPServer", "", true},
		{"python3 -X dev -W ignore -m http.server -d /x", "/x", true},
		{"python3 -m pytest", "", false},
		{"python3 server.py -m http.server", "", false},
		{"php -S 0.0.0.0:80 -t /", "/", true},
		{"php -l x.php", "", false},
		{"ruby -run -e httpd /x -p 80", "/x", true},
		{"ruby -e httpd", "", false},
		{"httpd -h /", "/", true},
		{"httpd -h", "", false},
		{"npx -y http-server@14 /x -p 1", "/x", true},
		{"npx serve dist", "dist", true},
		{"npx eslint .", "", false},
		{"caddy file-server --root /x", "/x", true},
		{"caddy run", "", false},
		{"twistd -n web --path /x", "/x", true},
	} {
		w := strings.Fields(c.cmd)
		root, ok := Serves(w[0], w[1:])
		if root != c.root || ok != c.ok {
			t.Errorf("Serves(%q) = %q, %v; want %q, %v", c.cmd, root, ok, c.root, c.ok)
		}
	}
}

func TestTunnels(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"ssh -R 80:localhost:22 h", true},
		{"ssh -fNR80:localhost:22 h", true},
		{"ssh -L 80:localhost:22 h", false},
		{"ssh h uptime", false},
		{"ngrok http 3000", true},
		{"ngrok version", false},
		{"cloudflared tunnel run x", true},
		{"cloudflared --version", false},
	} {
		w := strings.Fields(c.cmd)
		if got := Tunnels(w[0], w[1:]); got != c.want {
			t.Errorf("Tunnels(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
