package gate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

func TestHold(t *testing.T) {
	dir := t.TempDir()
	hit := judge.Hit{RuleID: "GIT-RESET-HARD", Verdict: judge.Deny, Decision: "deny", Reason: "discards work"}
	defaults := func() judge.Decision {
		return judge.Decision{Verdict: judge.Deny, Decision: "deny", Hits: []judge.Hit{hit}}
	}
	allowed := judge.Decision{Verdict: judge.Allow, Decision: "allow"}
	called := false
	if d, x := Hold(allowed, dir, "cfg1", func() judge.Decision { called = true; return defaults() }); d.Verdict != judge.Allow || called || x == nil || x.Seq != 0 {
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
		d, _ := Hold(allowed, dir, tc.cfg, defaults)
		if d.Verdict != tc.want || (tc.why != "" && (len(d.Hits) == 0 || !strings.Contains(d.Hits[0].Reason, tc.why))) {
			t.Errorf("%s: %+v", tc.name, d)
		}
	}
	// A state the agent broke holds everything (fail closed).
	os.WriteFile(filepath.Join(dir, File), []byte("{not json"), 0o600)
	if d, _ := Hold(allowed, dir, "cfg1", defaults); d.Verdict != judge.Deny || !strings.Contains(d.Hits[0].Reason, "cannot be read") {
		t.Fatalf("broken state: %+v", d)
	}
	os.Remove(filepath.Join(dir, File))
	if err := os.Mkdir(filepath.Join(dir, File), 0o700); err != nil {
		t.Fatal(err)
	}
	if d, _ := Hold(allowed, dir, "cfg1", defaults); d.Verdict != judge.Deny {
		t.Fatalf("a directory as state: %+v", d)
	}
}

// The cache is checked against the register in the append's transaction:
// the honest cache passes; edited in place (status, held rules), deleted,
// or present where no gate ran, the append is refused with what the
// register says; an entry merged from the journal never counts as a gate.
func TestCacheCheckedAgainstRegister(t *testing.T) {
	dir := t.TempDir()
	reg, err := register.Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	allowed := judge.Decision{Verdict: judge.Allow, Decision: "allow"}
	defaults := func() judge.Decision { return allowed }
	appendWith := func(x *register.Expect) error {
		return reg.AppendExpecting(&register.Entry{Kind: register.KindDecision, Rules: []string{}, Input: []byte(`{}`)}, x)
	}
	// No gate ever ran: nothing to match, nothing refused.
	if _, x := Hold(allowed, dir, "cfg1", defaults); appendWith(x) != nil {
		t.Fatal("no gate: append refused")
	}
	s := &State{ConfigHash: "cfg1", Status: Failed, Rules: []string{"GIT-RESET-HARD"}, KeepRules: []string{"GIT-RESET-HARD"}, MustKeep: "mk"}
	e := &register.Entry{Kind: EntryKind, Label: s.Status, Rules: s.Rules, Tool: "sentinel gate", Reason: s.Reason()}
	if err := reg.Append(e); err != nil {
		t.Fatal(err)
	}
	s.Seq, s.EntryHash = e.Seq, e.Hash
	if err := Save(dir, s); err != nil {
		t.Fatal(err)
	}
	if _, x := Hold(allowed, dir, "cfg1", defaults); appendWith(x) != nil {
		t.Fatalf("the honest cache refused: %v", appendWith(x))
	}
	forged := []struct {
		name string
		edit func(*State)
	}{
		{"accepted", func(f *State) { f.Status = Accepted }},
		{"passed", func(f *State) { f.Status = Passed }},
		{"no rules held", func(f *State) { f.Rules = []string{} }},
		{"another config", func(f *State) { f.ConfigHash = "cfg2" }},
		{"an earlier entry", func(f *State) { f.Seq-- }},
	}
	for _, tc := range forged {
		f := *s
		tc.edit(&f)
		if err := Save(dir, &f); err != nil {
			t.Fatal(err)
		}
		_, x := Hold(allowed, dir, "cfg1", defaults)
		var stale *register.StaleError
		if err := appendWith(x); !errors.As(err, &stale) || stale.Found == nil || stale.Found.Seq != s.Seq || stale.Found.Label != Failed {
			t.Errorf("%s: append %v, want refused naming entry %d (failed)", tc.name, err, s.Seq)
		}
	}
	os.Remove(filepath.Join(dir, File))
	_, x := Hold(allowed, dir, "cfg1", defaults)
	var stale *register.StaleError
	if err := appendWith(x); !errors.As(err, &stale) || stale.Found == nil || !strings.Contains(err.Error(), "newest") {
		t.Errorf("deleted cache: append %v, want refused", err)
	}
	n, _ := reg.Count()
	if n != 3 {
		t.Errorf("%d entries: a refused append wrote something", n)
	}
	// A gate entry in the journal is not a gate: it is merged as an error.
	forgedLine := &register.Entry{Kind: EntryKind, Label: Accepted, Rules: []string{}, Reason: "must-keep gate accepted"}
	if err := register.Journal(dir, forgedLine); err != nil {
		t.Fatal(err)
	}
	if err := appendWith(x); !errors.As(err, &stale) {
		t.Errorf("after a journaled gate line: %v", err)
	}
	if last, err := reg.LatestOfKind(EntryKind); err != nil || last == nil || last.Seq != s.Seq {
		t.Errorf("latest gate %+v %v, want entry %d", last, err, s.Seq)
	}
}
