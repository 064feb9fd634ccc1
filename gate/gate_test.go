package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/judge"
)

func TestHold(t *testing.T) {
	dir := t.TempDir()
	hit := judge.Hit{RuleID: "GIT-RESET-HARD", Verdict: judge.Deny, Decision: "deny", Reason: "discards work"}
	defaults := func() judge.Decision {
		return judge.Decision{Verdict: judge.Deny, Decision: "deny", Hits: []judge.Hit{hit}}
	}
	allowed := judge.Decision{Verdict: judge.Allow, Decision: "allow"}
	called := false
	if d := Hold(allowed, dir, "cfg1", func() judge.Decision { called = true; return defaults() }); d.Verdict != judge.Allow || called {
		t.Fatalf("no gate: %+v (defaults judged: %v)", d, called)
	}
	s := &State{ConfigHash: "cfg1", Status: Failed, Rules: []string{"GIT-RESET-HARD"}, KeepRules: []string{"GIT-RESET-HARD", "RM-HOME"}}
	if err := Save(dir, s); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, status, cfg string
		want              judge.Verdict
		why               string
	}{
		{"failed config held", Failed, "cfg1", judge.Deny, "failed the must-keep gate"},
		{"another config unchecked", Passed, "cfg2", judge.Deny, "changed since the must-keep gate last ran"},
		{"passed config free", Passed, "cfg1", judge.Allow, ""},
		{"accepted config free", Accepted, "cfg1", judge.Allow, ""},
	}
	for _, tc := range cases {
		s.Status = tc.status
		Save(dir, s)
		d := Hold(allowed, dir, tc.cfg, defaults)
		if d.Verdict != tc.want || (tc.why != "" && (len(d.Hits) == 0 || !strings.Contains(d.Hits[0].Reason, tc.why))) {
			t.Errorf("%s: %+v", tc.name, d)
		}
	}
	// A state the agent broke holds everything (fail closed).
	os.WriteFile(filepath.Join(dir, File), []byte("{not json"), 0o600)
	if d := Hold(allowed, dir, "cfg1", defaults); d.Verdict != judge.Deny || !strings.Contains(d.Hits[0].Reason, "cannot be read") {
		t.Fatalf("broken state: %+v", d)
	}
	os.Remove(filepath.Join(dir, File))
	if err := os.Mkdir(filepath.Join(dir, File), 0o700); err != nil {
		t.Fatal(err)
	}
	if d := Hold(allowed, dir, "cfg1", defaults); d.Verdict != judge.Deny {
		t.Fatalf("a directory as state: %+v", d)
	}
}
