package programs

import (
	"strings"
	"testing"
)

// The code each launcher hands over, as the shell text parse re-reads; a
// benign spelling of the same program hands over nothing (or a harmless
// command).
func TestLaunch2Code(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // joined Code texts
	}{
		{"less", []string{"-f", "+!rm -rf ~", "README.md"}, "rm -rf ~"},
		{"less", []string{"++!id", "x"}, "id"},
		{"less", []string{"+G", "README.md"}, ""},
		{"man", []string{"-P", "rm -rf ~ ;", "ls"}, "rm -rf ~ ;"},
		{"man", []string{"--pager=cat", "ls"}, "cat"},
		{"man", []string{"ls"}, ""},
		{"expect", []string{"-c", "spawn -noecho rm -rf /root; expect eof"}, "rm -rf /root"},
		{"expect", []string{"-c", "exec {rm} -rf /x"}, "'rm' -rf /x"},
		{"expect", []string{"-v"}, ""},
		{"apt-get", []string{"-o", "APT::Update::Pre-Invoke::=rm -rf ~", "update"}, "rm -rf ~"},
		{"apt-get", []string{"-oDPkg::Post-Invoke::=touch /x", "install", "jq"}, "touch /x"},
		{"apt-get", []string{"-o", "Dpkg::Options::=--force-confold", "install", "jq"}, ""},
		{"capsh", []string{"--", "-c", "rm -rf ~"}, "rm -rf ~"},
		{"capsh", []string{"--shell=/bin/sh", "--", "x.sh", "a b"}, "/bin/sh 'x.sh' 'a b'"},
		{"capsh", []string{"--print"}, ""},
		{"lua", []string{"-e", `os.execute("rm -rf ~")`}, "rm -rf ~"},
		{"lua", []string{"-e", `local f = io.popen([[ls /]])`}, "ls /"},
		{"lua", []string{"-e", `print(os.time())`}, ""},
		{"Rscript", []string{"-e", `system('rm -rf ~'); system2("ls")`}, "ls|rm -rf ~"},
		{"R", []string{"--no-save", "-e", `print(1)`}, ""},
	}
	for _, c := range cases {
		var got []string
		for _, k := range Lookup(c.name).CodeIn(c.args) {
			got = append(got, k.Text)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s %q: code %q, want %q", c.name, c.args, g, c.want)
		}
	}
}

func TestEntrLaunch(t *testing.T) {
	if l, ok := entrLaunch([]string{"-s", "rm -rf ~"}); !ok || !l.Shell || l.At != 1 {
		t.Errorf("entr -s: %+v %v", l, ok)
	}
	if l, ok := entrLaunch([]string{"-c", "make", "test"}); !ok || l.Shell || l.At != 1 {
		t.Errorf("entr -c make: %+v %v", l, ok)
	}
}

func TestPublicAddr(t *testing.T) {
	for h, want := range map[string]bool{"0.0.0.0": true, "::": true, "[::]": true, "*": true, "10.1.2.3": true, "example.com": true,
		"127.0.0.1": false, "127.1.2.3": false, "::1": false, "localhost": false, "": false, "unix:///run/x.sock": false} {
		if PublicAddr(h) != want {
			t.Errorf("PublicAddr(%q) = %v", h, !want)
		}
	}
}
