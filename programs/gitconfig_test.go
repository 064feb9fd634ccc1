package programs

import (
	"reflect"
	"testing"
)

func TestGitConfigParse(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []GitSetting
	}{
		{"[alias]\n\tsync = reset --hard origin/main\n", []GitSetting{{"alias.sync", "reset --hard origin/main"}}},
		{"[Alias]\n\tSync=status\n", []GitSetting{{"alias.sync", "status"}}},
		{"[core]\n\tfsmonitor = \"sh -c \\\"id\\\"\" # run\n", []GitSetting{{"core.fsmonitor", `sh -c "id"`}}},
		{"[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n", []GitSetting{{"filter.lfs.clean", "git-lfs clean -- %f"}}},
		{"[Filter \"LFS\"]\n\tclean = x\n", []GitSetting{{"filter.LFS.clean", "x"}}},
		{"[alias.x]\n\ty = z\n", []GitSetting{{"alias.x.y", "z"}}},
		{"; c\n# c\n[core]\n\tbare\n", []GitSetting{{"core.bare", "true"}}},
		{"[alias]\n\tlong = log \\\n --oneline\n", []GitSetting{{"alias.long", "log  --oneline"}}},
		{"[alias] st = status\n", []GitSetting{{"alias.st", "status"}}},
		{"[alias]\n\ta = \"x ; y\"\n", []GitSetting{{"alias.a", "x ; y"}}},
		{"[alias]\n\ta = x ; y\n", []GitSetting{{"alias.a", "x"}}},
		{"x = y\n[alias]\n\ta = b\n", nil},                                      // a setting before any section: git refuses the file
		{"[alias]\n\ta = b\n\t!bad\n\tc = d\n", []GitSetting{{"alias.a", "b"}}}, // git stops at the bad line
		{"[alias]\n\ta = \"unclosed\n", nil},                                    // unclosed quote
		{"[includeIf \"gitdir:~/w/\"]\n\tpath = x.inc\n", []GitSetting{{"includeif.gitdir:~/w/.path", "x.inc"}}},
	} {
		if got := GitConfigParse(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestGitConfigPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/home/u/proj/.git/config": true, "/home/u/.gitconfig": true, "/home/u/.config/git/config": true,
		"/etc/gitconfig": true, "/home/u/proj/.git/modules/sub/config": true, "/home/u/proj/.git/config.worktree": true,
		"/home/u/proj/config": false, "/home/u/proj/src/git/config": false, "/home/u/proj/.git/HEAD": false,
	} {
		if got := GitConfigPath(p); got != want {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
}

func TestGitConfigSetAndParameters(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		key, val string
		ok       bool
	}{
		{[]string{"alias.x", "reset --hard"}, "alias.x", "reset --hard", true},
		{[]string{"--global", "--add", "alias.x", "y"}, "alias.x", "y", true},
		{[]string{"-f", "x.inc", "alias.x", "y"}, "alias.x", "y", true},
		{[]string{"set", "--all", "alias.x", "y"}, "alias.x", "y", true},
		{[]string{"--get", "alias.x"}, "", "", false},
		{[]string{"alias.x"}, "", "", false},
		{[]string{"--unset", "alias.x"}, "", "", false},
		{[]string{"get", "alias.x"}, "", "", false},
	} {
		k, v, ok := GitConfigSet(tc.args)
		if k != tc.key || v != tc.val || ok != tc.ok {
			t.Errorf("%q: %q %q %v", tc.args, k, v, ok)
		}
	}
	if got := GitConfigParameters(`'core.fsmonitor=sh -c id' 'a.b'='c d'`); !reflect.DeepEqual(got, []string{"core.fsmonitor=sh -c id", "a.b=c d"}) {
		t.Errorf("GitConfigParameters: %q", got)
	}
	if got := GitPackCommands("clone", []string{"-u", "x y", "--upload-pack=z", "--", "--upload-pack=w"}); !reflect.DeepEqual(got, []string{"x y", "z"}) {
		t.Errorf("GitPackCommands: %q", got)
	}
	if got, _ := GitSplitCmdline(`log --format="%h %s" 'a b'`); !reflect.DeepEqual(got, []string{"log", "--format=%h %s", "a b"}) {
		t.Errorf("GitSplitCmdline: %q", got)
	}
	if d, g := GitPlace([]string{"-C", "a", "-C", "b", "--git-dir=x", "status", "-C", "z"}); d != "a/b" || g != "x" {
		t.Errorf("GitPlace: %q %q", d, g)
	}
}
