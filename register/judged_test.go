package register

import (
	"errors"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// The ids the hook judged come from decision and error entries (never an
// outcome: a PostToolUse record alone means the call was not judged) and
// from the journal's lines not merged yet; a FIFO journal is refused, not
// waited on.
func TestJudgedIDs(t *testing.T) {
	dir := t.TempDir()
	r, err := Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if ft, err := r.FirstTime(); err != nil || !ft.IsZero() {
		t.Fatalf("empty register: first time %v %v", ft, err)
	}
	for _, e := range []Entry{
		{Kind: KindDecision, ToolUseID: "toolu_decided", Decision: "allow"},
		{Kind: KindError, ToolUseID: "toolu_error", Decision: "ask"},
		{Kind: KindOutcome, ToolUseID: "toolu_only_ran", Label: LabelRan},
		{Kind: KindDecision, Decision: "allow"},
	} {
		e.Rules = []string{}
		if err := r.Append(&e); err != nil {
			t.Fatal(err)
		}
	}
	if ft, err := r.FirstTime(); err != nil || ft.IsZero() {
		t.Fatalf("first time %v %v", ft, err)
	}
	var ids []string
	if err := r.JudgedIDs(func(id string) error { ids = append(ids, id); return nil }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"toolu_decided", "toolu_error"}) {
		t.Errorf("judged ids %v", ids)
	}
	for _, e := range []Entry{
		{Kind: KindDecision, ToolUseID: "toolu_journaled", Decision: "allow", Rules: []string{}},
		{Kind: KindOutcome, ToolUseID: "toolu_journaled_ran", Label: LabelRan, Rules: []string{}},
	} {
		if err := Journal(dir, &e); err != nil {
			t.Fatal(err)
		}
	}
	var jids []string
	if err := JournalIDs(dir, func(id string) { jids = append(jids, id) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(jids, []string{"toolu_journaled"}) {
		t.Errorf("journal ids %v", jids)
	}
	fifo := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifo, JournalFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := JournalIDs(fifo, func(string) {}); !errors.Is(err, ErrRefused) {
		t.Errorf("FIFO journal: %v, want ErrRefused", err)
	}
}
