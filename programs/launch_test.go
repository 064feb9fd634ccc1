package programs

import (
	"strings"
	"testing"
)

func TestSedScan(t *testing.T) {
	for _, c := range []struct {
		script             string
		writes, reads, run string
		stream             bool
	}{
		{script: "1e rm -rf ~", run: "rm -rf ~"},
		{script: "s/x/y/w /home/u/.bashrc", writes: "/home/u/.bashrc"},
		{script: "/^a/r header.txt", reads: "header.txt"},
		{script: "s/.*/&/e", stream: true},
		{script: "$!N;s/\\n/ /;P;D"},
		{script: "s/e/w/g"}, // the letters in a pattern are not commands
		{script: "y/abc/xyz/;w o", writes: "o"},
		{script: "/x/{s/a/b/;e date\n}", run: "date"},
		{script: "a\\\ne rm -rf ~"}, // GNU: the text of a, not a command
	} {
		ef := SedScan(c.script)
		if got := strings.Join(ef.Writes, ","); got != c.writes {
			t.Errorf("%q: writes %q, want %q", c.script, got, c.writes)
		}
		if got := strings.Join(ef.Reads, ","); got != c.reads {
			t.Errorf("%q: reads %q, want %q", c.script, got, c.reads)
		}
		if got := strings.Join(ef.Code, ","); got != c.run {
			t.Errorf("%q: code %q, want %q", c.script, got, c.run)
		}
		if ef.RunsStream != c.stream {
			t.Errorf("%q: runs stream %v, want %v", c.script, ef.RunsStream, c.stream)
		}
	}
}

func TestLaunchAndCode(t *testing.T) {
	launch := func(name, line string) string {
		args := strings.Fields(line)
		l, ok := Lookup(name).Launch(args)
		if !ok {
			return "-"
		}
		s := strings.Join(args[l.At:], " ")
		if l.Shell {
			s = "sh:" + s
		}
		return s
	}
	for _, c := range []struct{ name, args, want string }{
		{"screen", "-dmS job rm -rf x", "rm -rf x"},
		{"screen", "-r job", "-"},
		{"systemd-run", "--user --on-active=60 -p X=1 rm x", "rm x"},
		{"wsl", "-d Ubuntu -e rm x", "rm x"},
		{"wsl", "-- ls /", "sh:ls /"},
		{"wsl", "--list", "-"},
		{"op", "run --env-file=x -- npm start", "npm start"},
		{"uv", "run pytest -q", "pytest -q"},
		{"uv", "pip install x", "-"},
		{"aws-vault", "exec prod -- aws s3 ls", "aws s3 ls"},
		{"dtach", "-c /tmp/s -z rm x", "rm x"},
	} {
		if got := launch(c.name, c.args); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.name, c.args, got, c.want)
		}
	}
	code := func(name string, args ...string) string {
		var out []string
		for _, k := range Lookup(name).CodeIn(args) {
			out = append(out, k.Text)
		}
		return strings.Join(out, "|")
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"ssh", []string{"-o", "ProxyCommand=nc %h %p", "host"}, "nc %h %p"},
		{"ssh", []string{"-oProxyCommand ssh -W %h:%p b", "host"}, "ssh -W %h:%p b"},
		{"ssh", []string{"-o", "ConnectTimeout=5", "host"}, ""},
		{"tar", []string{"-cf", "x", "--checkpoint-action=exec=id"}, "id"},
		{"tar", []string{"-cf", "x", "--checkpoint-action=dot"}, ""},
		{"tmux", []string{"new-session", "-d", "-s", "x", "npm run dev"}, "npm run dev"},
		{"tmux", []string{"send-keys", "-t", "x", "make", "Space", "test", "Enter"}, "make test\n"},
		{"tmux", []string{"ls"}, ""},
		{"awk", []string{`BEGIN{"date" | getline d}`}, "date"},
		{"make", []string{"--eval=x:;echo $(shell id)"}, "echo $(shell id)|id"},
	} {
		if got := code(c.name, c.args...); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.name, c.args, got, c.want)
		}
	}
}

// FuzzCodeIn: the grammars of launchers and code-holding options never
// panic and name only arguments that exist.
func FuzzCodeIn(f *testing.F) {
	for _, s := range []string{"1e rm -rf ~", "new-session -d 'x'", "-o ProxyCommand=x h", "{print | \"sh\"}",
		"--checkpoint-action=exec=x", "-X stuff x", "s/a/b/w", "\\", "send-keys Enter", "--eval=a:;b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, " ")
		SedScan(s)
		StreamShell("sed", args)
		StreamShell("awk", args)
		for _, p := range All() {
			if p.CodeIn != nil {
				for _, k := range p.CodeIn(args) {
					if k.Arg < -1 || k.Arg >= len(args) {
						t.Fatalf("%s: code at %d of %d args", p.Name, k.Arg, len(args))
					}
				}
			}
			if p.Launch != nil {
				if l, ok := p.Launch(args); ok && (l.At < 0 || l.At >= len(args)) {
					t.Fatalf("%s: launch at %d of %d args", p.Name, l.At, len(args))
				}
			}
		}
	})
}
