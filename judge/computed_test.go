package judge

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPatchTargets: git apply and patch are judged by the files the patch
// file names (read bounded from disk), not by the command line.
func TestPatchTargets(t *testing.T) {
	env := testEnv(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	off := write("off.patch", "--- a/.claude/settings.local.json\n+++ b/.claude/settings.local.json\n@@ -0,0 +1 @@\n+{\"disableAllHooks\": true}\n")
	typo := write("typo.patch", "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-teh\n+the\n")
	hook := write("hook.diff", "diff --git a/x b/x\nsimilarity index 100%\nrename from x\nrename to .git/hooks/pre-commit\n")
	fifo := filepath.Join(dir, "fifo.patch")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd, rule string
	}{
		{"git apply " + off, RuleClaudeSettingsEdit},
		{"patch -p1 < " + off, RuleClaudeSettingsEdit},
		{"patch -p1 -i " + off, RuleClaudeSettingsEdit},
		{"patch < " + off, RuleClaudeSettingsEdit},
		{"git apply " + hook, RulePersistenceInstall},
		{"git apply " + typo, ""},
		{"patch -p1 < " + typo, ""},
		{"git apply --check " + off, ""},
		{"patch --dry-run -p1 < " + off, ""},
		{"git apply " + fifo, ""}, // refused by safefile, never waited on
		{"git apply " + filepath.Join(dir, "missing.patch"), ""},
	} {
		d := Decide(bash(c.cmd), env)
		got := d.RuleIDs()
		if c.rule == "" && (contains(got, RuleClaudeSettingsEdit) || contains(got, RulePersistenceInstall)) {
			t.Errorf("%q: %v, want neither settings nor persistence", c.cmd, got)
		}
		if c.rule != "" && !contains(got, c.rule) {
			t.Errorf("%q: %v, want %s", c.cmd, got, c.rule)
		}
	}
}

// TestWholeMatch: find's -path matching, where * crosses '/'.
func TestWholeMatch(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"*claude*", "./.claude/settings.json", true},
		{"./src/*.go", "./src/a/b.go", true},
		{"*/node_modules/*", "./src/a.go", false},
		{"[!.]*", ".claude", false},
		{"*.JSON", "./x.json", false},
	} {
		if got := wholeMatch(c.pat, c.s, false); got != c.want {
			t.Errorf("wholeMatch(%q, %q) = %v, want %v", c.pat, c.s, got, c.want)
		}
	}
	if !wholeMatch("*.JSON", "./x.json", true) {
		t.Error("-ipath does not fold case")
	}
}
