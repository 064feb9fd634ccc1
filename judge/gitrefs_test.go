package judge

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPushSettingsRecalled: a push setting that forces, written in one
// call, makes a later plain push of the session ask; a benign setting, a
// push with its own refspecs, or no memory do not.
func TestPushSettingsRecalled(t *testing.T) {
	cases := []struct {
		set, then string
		want      Verdict
	}{
		{"git config remote.backup.push '+refs/heads/*:refs/heads/*'", "git push backup", Ask},
		{"git config remote.origin.mirror true", "git push", Ask},
		{"git config remote.backup.push 'refs/heads/*:refs/heads/*'", "git push backup", Allow},
		{"git config remote.backup.push '+refs/heads/*:refs/heads/*'", "git push backup feature", Allow},
	}
	for _, tc := range cases {
		env := testEnv(t)
		env.NoFiles = true
		m := &tableMemory{written: map[string]WrittenFact{}}
		env.Memory = m
		d := Decide(bash(tc.set), env)
		d.Verdict = Allow // approved: it ran
		m.keep(d)
		if d := Decide(bash(tc.then), env); d.Verdict != tc.want {
			t.Errorf("%q then %q: %s %v, want %s", tc.set, tc.then, d.Decision, d.RuleIDs(), tc.want)
		}
		env.Memory = nil
		if d := Decide(bash(tc.then), env); d.Verdict != Allow {
			t.Errorf("%q without memory: %s %v, want allow", tc.then, d.Decision, d.RuleIDs())
		}
	}
}

// TestGitRefsOnDisk: the repository is read at decision time: a plain
// push whose remote.NAME.push forces asks; git branch -M asks only onto a
// branch that exists and is not the current one (GitHub's `git branch -M
// main` on a new repository replaces nothing).
func TestGitRefsOnDisk(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj+"/.git/refs/heads", 0o755); err != nil {
		t.Fatal(err)
	}
	put := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(proj+"/.git/HEAD", "ref: refs/heads/master\n")
	put(proj+"/.git/refs/heads/master", "0123456789012345678901234567890123456789\n")
	put(proj+"/.git/refs/heads/feature", "0123456789012345678901234567890123456789\n")
	put(proj+"/.git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n0123456789012345678901234567890123456789 refs/heads/release\n")
	put(proj+"/.git/config", "[remote \"mirror\"]\n\turl = ../m.git\n\tpush = +refs/heads/*:refs/heads/*\n"+
		"[remote \"origin\"]\n\turl = https://github.com/acme/app.git\n")
	env := testEnv(t)
	env.Home, env.ProjectDir = home, proj
	run := func(cmd string, noFiles bool) Decision {
		c := bash(cmd)
		c.Cwd = proj
		e := env
		e.NoFiles = noFiles
		return Decide(c, e)
	}
	for _, tc := range []struct {
		cmd     string
		noFiles bool
		want    Verdict
	}{
		{"git branch -M main", false, Allow},        // no main: a rename
		{"git branch -M master", false, Allow},      // the current branch: nothing replaced
		{"git branch -M feature", false, Ask},       // replaces feature
		{"git branch -M x release", false, Ask},     // a packed ref
		{"git branch -m feature", false, Allow},     // git refuses without force
		{"git branch -M main", true, Ask},           // replay: not read, the main branch
		{"git branch -M feature", true, Allow},      // replay: not read
		{"git push mirror", false, Ask},             // remote.mirror.push forces
		{"git push origin", false, Allow},           // another remote
		{"git push mirror feature", false, Allow},   // its own refspec wins
		{"git push mirror", true, Allow},            // replay: the config is not read
		{"git push --dry-run mirror", false, Allow}, // nothing sent
		// an existing remote pointed at another owner (GIT-REMOTE-REDIRECT)
		{"git remote set-url origin https://github.com/evil/mirror.git", false, Ask},
		{"git config remote.origin.pushurl ssh://git@gitlab.com/other/app", false, Ask},
		{"git remote set-url origin git@github.com:acme/app.git", false, Allow},        // the same owner by ssh
		{"git remote set-url mirror https://github.com/evil/mirror.git", false, Allow}, // it was a path
		{"git remote set-url origin https://github.com/evil/mirror.git", true, Allow},  // replay: not read
	} {
		if d := run(tc.cmd, tc.noFiles); d.Verdict != tc.want {
			t.Errorf("%s (NoFiles %v): %s %v, want %s", tc.cmd, tc.noFiles, d.Decision, d.RuleIDs(), tc.want)
		}
	}
}
