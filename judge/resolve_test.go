package judge

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGlobsOnDisk: a glob is matched against the directory's entries as
// the shell would expand it in the call's cwd; replay (NoFiles) lists
// nothing, so only the names of the lists count there.
func TestGlobsOnDisk(t *testing.T) {
	home := filepath.Join(t.TempDir(), "u")

	for p, text := range map[string]string{"proj/app.prod.env": "K=V", "proj/deploy.pem.key": "KEY",
		"proj/notes.txt": "x", "proj/data.json": "{}"} {
		p = filepath.Join(home, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		cmd     string
		noFiles bool
		want    Verdict
	}{
		{"cat *.env", false, Ask},  // app.prod.env is there
		{"cat *.env", true, Allow}, // replay: nothing listed
		{"cat app.*", false, Ask},  // app.prod.env
		{"cat *.key", false, Ask},  // deploy.pem.key
		{"cat *.txt *.json", false, Allow},
		{"cat *", false, Ask},         // every name there, the key among them
		{"cat .en?", true, Ask},       // .env is a name of the lists: no disk needed
		{"ls *.key", false, Allow},    // names, not content
		{"wc -l *.env", false, Allow}, // a count
	} {
		d := decideLinked(t, home, "Bash", c.cmd, c.noFiles)
		if d.Verdict != c.want {
			t.Errorf("%q (noFiles %v): %s %v, want %s", c.cmd, c.noFiles, d.Decision, d.RuleIDs(), c.want)
		}
	}
}

// TestHomeIsNeverTheProject: a session started in the home directory (or
// with CLAUDE_PROJECT_DIR at home or above it) has no project, so nothing
// in home is project-local.
func TestHomeIsNeverTheProject(t *testing.T) {
	for _, project := range []string{"/home/user", "/home", "/"} {
		env := Env{Home: "/home/user", ProjectDir: project}
		for _, c := range []struct {
			cmd  string
			want Verdict
		}{
			{"rm -rf ~/Documents", Deny},
			{"rm -rf Documents", Deny},
			{"echo 'export X=1' >> .bashrc", Ask},
			{"ls -la", Allow},
			{"cat README.md", Allow},
		} {
			call := bash(c.cmd)
			call.Cwd = "/home/user"
			if d := Decide(call, env); d.Verdict != c.want {
				t.Errorf("project %s: %q: %s %v, want %s", project, c.cmd, d.Decision, d.RuleIDs(), c.want)
			}
		}
	}
	// a project below home is still one
	call := bash("rm -rf build")
	call.Cwd = "/home/user/proj"
	if d := Decide(call, Env{Home: "/home/user", ProjectDir: "/home/user/proj"}); d.Verdict != Allow {
		t.Errorf("project below home: rm -rf build: %s %v", d.Decision, d.RuleIDs())
	}
}
