package protocol

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// TestReplayStreamSameAsBefore: on a generated register (real SQLite:
// decisions with inputs, commitment-only ones, outcomes before and after
// their decision, grades regraded, ids decided twice), the streaming
// Replay, through the register's indexes and through passes alone (a
// bundle), gives exactly the report the replay that kept every flag and a
// map of every outcome gave.
func TestReplayStreamSameAsBefore(t *testing.T) {
	r, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 5000
	var flags []int64
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	err = register.BulkLoad(r, n, func(i int) *register.Entry {
		e := &register.Entry{Kind: register.KindDecision, Time: at.Add(time.Duration(i) * time.Second), Tool: "Bash",
			ToolUseID: fmt.Sprintf("toolu_%d", rng.IntN(n/2)), Rules: []string{}, Input: []byte(fmt.Sprintf(`{"command":"c%d"}`, rng.IntN(50)))}
		switch p := rng.IntN(100); {
		case p < 35:
			e.Kind, e.Decision, e.Input, e.Label = register.KindOutcome, "", nil, register.LabelRan
		case p < 45 && len(flags) > 0:
			e.Kind, e.Decision, e.Input, e.ToolUseID = register.KindGrade, "", nil, ""
			e.Ref, e.Label = flags[rng.IntN(len(flags))], []string{GradeTrue, GradeFalse, "unclear"}[rng.IntN(3)]
		default:
			e.Decision = []string{"allow", "allow", "ask", "deny"}[rng.IntN(4)]
			if e.Decision != "allow" {
				e.Rules = []string{fmt.Sprintf("R%d", rng.IntN(4))}
				flags = append(flags, int64(i+1))
			}
			if rng.IntN(10) == 0 {
				e.ToolUseID = ""
			}
		}
		return e
	})
	if err != nil {
		t.Fatal(err)
	}
	// A changed catalog: the decision is a function of the input.
	decide := func(e register.Entry, _ judge.Memory) (Redecision, error) {
		h := fnv.New32a()
		h.Write(e.Input)
		v := h.Sum32()
		d := Redecision{Decision: []string{"allow", "allow", "ask", "deny", "allow"}[v%5]}
		if d.Decision != "allow" {
			d.Rules = []string{fmt.Sprintf("R%d", v%6)}
		}
		if v%17 == 0 {
			d.Error = "could not judge"
		}
		return d, nil
	}
	var mk []MustKeep
	for seq := int64(1); seq <= 60; seq++ {
		e, err := r.Get(seq)
		if err != nil {
			t.Fatal(err)
		}
		c := e.Commitment
		if seq%7 == 0 {
			c = "0000"
		}
		mk = append(mk, MustKeep{Seq: seq, Commitment: c})
	}
	mk = append(mk, MustKeep{Seq: n + 5, Commitment: "x"})
	want, err := replayBefore(outcome.Entries(r), decide, mk)
	if err != nil {
		t.Fatal(err)
	}
	if want.Changed == 0 || len(want.GradedTrueLost) == 0 || len(want.GradedFalseRemoved) == 0 {
		t.Fatalf("the register lacks a case: %+v", want)
	}
	seen := map[string]bool{}
	for _, c := range want.Changes {
		seen[c.FirstTime] = true
	}
	if len(seen) < 4 {
		t.Fatalf("first times %v", seen)
	}
	for name, src := range map[string]Source{"index": {Each: outcome.Entries(r), Index: r}, "passes": {Each: outcome.Entries(r)}} {
		got, err := ReplayFrom(src, decide, mk, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the report differs\n got %+v\nwant %+v", name, got, want)
		}
		emitted := []Change{}
		got, err = ReplayFrom(src, decide, mk, func(c *Change) error { emitted = append(emitted, *c); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Changes) != 0 || !reflect.DeepEqual(emitted, want.Changes) {
			t.Errorf("%s: emitted changes differ (%d kept, %d emitted, want %d)", name, len(got.Changes), len(emitted), len(want.Changes))
		}
		got.Changes = want.Changes
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s, emitting: the report differs", name)
		}
	}
}
