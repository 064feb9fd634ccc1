package judge

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSettingsFileRead: `claude --settings FILE` is judged by the file's
// text, read as every file the agent can replace is read: a FIFO in its
// place must not block the hook (no writer ever comes), and what cannot be
// read is taken as hooks off, never as harmless.
func TestSettingsFileRead(t *testing.T) {
	proj := t.TempDir()
	env := testEnv(t)
	env.ProjectDir = proj
	put := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(proj, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("plain.json", `{"model": "opus"}`)
	put("off.json", `{"disableAllHooks": true}`)
	if err := mkfifo(filepath.Join(proj, "fifo.json")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, tc := range []struct {
		file string
		want Verdict
	}{
		{"plain.json", Allow},
		{"off.json", Deny},
		{"fifo.json", Deny},
		{"missing.json", Deny},
	} {
		c := bash("claude --settings ./" + tc.file + " -p hi")
		c.Cwd = proj
		done := make(chan Decision, 1)
		go func() { done <- Decide(c, env) }()
		select {
		case d := <-done:
			if d.Verdict != tc.want {
				t.Errorf("%s: %s %v, want %s", tc.file, d.Decision, d.RuleIDs(), tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the judge blocked reading the settings file", tc.file)
		}
	}
}
