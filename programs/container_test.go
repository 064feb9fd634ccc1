package programs

import (
	"reflect"
	"strings"
	"testing"
)

func TestContainerHost(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want HostAccess
		ok   bool
	}{
		{"docker run -v /:/host alpine", HostAccess{Mounts: []string{"/"}, ReadOnly: []bool{false}}, true},
		{"docker -H tcp://x run -it -v/etc:/e --privileged alpine", HostAccess{Mounts: []string{"/etc"}, ReadOnly: []bool{false}, Privileged: true}, true},
		{"podman container run --mount type=bind,source=/root,target=/r x", HostAccess{Mounts: []string{"/root"}, ReadOnly: []bool{false}}, true},
		{"docker run -v ~/.aws:/root/.aws:ro -v /etc:/e:z,ro x", HostAccess{Mounts: []string{"~/.aws", "/etc"}, ReadOnly: []bool{true, true}}, true},
		{"docker run --mount type=bind,src=/a,dst=/b,readonly --mount src=/c,dst=/d,readonly=false x", HostAccess{Mounts: []string{"/a", "/c"}, ReadOnly: []bool{true, false}}, true},
		{"docker run -v /ro:/x x", HostAccess{Mounts: []string{"/ro"}, ReadOnly: []bool{false}}, true},
		{"docker run --name db -e A=/ -v data:/d postgres -v /:/x", HostAccess{}, true},
		{"docker run --pid host alpine", HostAccess{Privileged: true}, true},
		{"docker run --cap-add=NET_ADMIN alpine", HostAccess{}, true},
		{"docker ps -a", HostAccess{}, false},
		{"ls -v /:/x", HostAccess{}, false},
	} {
		w := strings.Fields(c.cmd)
		got, ok := ContainerHost(w[0], w[1:])
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ContainerHost(%q) = %+v, %v; want %+v, %v", c.cmd, got, ok, c.want, c.ok)
		}
	}
}

func TestInstallSource(t *testing.T) {
	for _, c := range []struct {
		cmd, src string
		ok       bool
	}{
		{"pip install git+https://github.com/x/y", "git+https://github.com/x/y", true},
		{"pip install -i https://i.example/simple requests", "https://i.example/simple", true},
		{"pip install --index-url=https://i.example/simple requests", "https://i.example/simple", true},
		{"npm i github:x/y", "github:x/y", true},
		{"npm config set registry https://r.example", "https://r.example", true},
		{"npm config set registry=https://r.example", "https://r.example", true},
		{"gem install x --source https://g.example", "https://g.example", true},
		{"pip install requests", "", false},
		{"npm install", "", false},
		{"npm run build", "", false},
		{"ls https://x", "", false},
	} {
		w := strings.Fields(c.cmd)
		src, ok := InstallSource(w[0], w[1:])
		if src != c.src || ok != c.ok {
			t.Errorf("InstallSource(%q) = %q, %v; want %q, %v", c.cmd, src, ok, c.src, c.ok)
		}
	}
}
