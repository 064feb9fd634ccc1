package protocol

import (
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

func TestReplayCountsAndGate(t *testing.T) {
	c := func(n int) string { return strings.Repeat(string(rune('a'+n)), 64) }
	es := []register.Entry{
		{Seq: 1, Kind: register.KindDecision, Decision: "deny", Rules: []string{"GIT-RESET-HARD"}, Input: []byte(`{"command":"git reset --hard origin/main"}`), Commitment: c(1), ToolUseID: "t1"},
		{Seq: 2, Kind: register.KindDecision, Decision: "deny", Rules: []string{"GIT-STASH-DROP"}, Input: []byte(`{"command":"git stash drop"}`), Commitment: c(2), ToolUseID: "t2"},
		{Seq: 3, Kind: register.KindDecision, Decision: "ask", Attended: true, Rules: []string{"DATA"}, Input: []byte(`{"command":"echo reset"}`), Commitment: c(3), ToolUseID: "t3"},
		{Seq: 4, Kind: register.KindDecision, Decision: "allow", Attended: true, Input: []byte(`{"command":"ls"}`), Commitment: c(4), ToolUseID: "t4"},
		{Seq: 5, Kind: register.KindDecision, Decision: "deny", Rules: []string{"X"}, Commitment: c(5)}, // commitment only
		{Seq: 6, Kind: register.KindOutcome, ToolUseID: "t3", Label: "ran"},
		{Seq: 7, Kind: register.KindGrade, Ref: 1, Label: GradeTrue},
		{Seq: 8, Kind: register.KindGrade, Ref: 2, Label: GradeTrue},
		{Seq: 9, Kind: register.KindGrade, Ref: 3, Label: GradeFalse},
	}
	// A "catalog" with the reset rule switched off and the data false positive fixed.
	decide := func(e register.Entry, _ judge.Memory) (Redecision, error) {
		switch {
		case strings.Contains(string(e.Input), "stash drop"):
			return Redecision{Decision: "deny", Rules: []string{"GIT-STASH-DROP"}}, nil
		case strings.Contains(string(e.Input), "ls"):
			return Redecision{Decision: "ask", Rules: []string{"NEW"}}, nil
		}
		return Redecision{Decision: "allow"}, nil
	}
	mk := []MustKeep{{Seq: 1, Commitment: c(1)}, {Seq: 2, Commitment: c(2)}}
	rep, err := Replay(each(es), decide, mk)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decisions != 5 || rep.Replayed != 4 || rep.NotReplayable != 1 {
		t.Errorf("counts %+v", rep)
	}
	if rep.Changed != 3 || rep.ByDirection["deny->allow"] != 1 || rep.ByDirection["ask->allow"] != 1 || rep.ByDirection["allow->ask"] != 1 {
		t.Errorf("directions %v", rep.ByDirection)
	}
	if rep.ByRule["GIT-RESET-HARD"].Lost != 1 || rep.ByRule["NEW"].Gained != 1 {
		t.Errorf("by rule %v", rep.ByRule)
	}
	if rep.FlagsLost != 2 || rep.FlagsGained != 1 || rep.FlagsBefore != 3 || rep.FlagsAfter != 2 {
		t.Errorf("flags %+v", rep)
	}
	if len(rep.GradedTrueLost) != 1 || rep.GradedTrueLost[0] != 1 || len(rep.GradedFalseRemoved) != 1 || rep.GradedFalseRemoved[0] != 3 {
		t.Errorf("graded %v %v", rep.GradedTrueLost, rep.GradedFalseRemoved)
	}
	if *rep.SelfConcordanceBefore < 0.66 || *rep.SelfConcordanceBefore > 0.67 || *rep.SelfConcordanceAfter != 1 {
		t.Errorf("concordance %v %v", *rep.SelfConcordanceBefore, *rep.SelfConcordanceAfter)
	}
	if rep.Gate != "failed" || len(rep.GateFailures()) != 1 || rep.GateFailures()[0].Seq != 1 || rep.GateFailures()[0].Status != KeepLost {
		t.Errorf("gate %s %+v", rep.Gate, rep.MustKeep)
	}
	first := map[int64]string{}
	for _, ch := range rep.Changes {
		first[ch.Seq] = ch.FirstTime
	}
	if first[1] != "held" || first[3] != "approved" || first[4] != "not_run" {
		t.Errorf("first time %v", first)
	}

	// The gate fails closed on a file that points elsewhere, a missing
	// entry and a commitment-only entry.
	bad := []MustKeep{{Seq: 2, Commitment: c(9)}, {Seq: 99, Commitment: c(1)}, {Seq: 5, Commitment: c(5)}, {Seq: 7, Commitment: c(7)}}
	es[6].Commitment = c(7)
	rep, _ = Replay(each(es), decide, bad)
	want := map[int64]string{2: KeepMismatch, 99: KeepMissing, 5: KeepNotReplay, 7: KeepNotADecision}
	for _, k := range rep.MustKeep {
		if want[k.Seq] != k.Status {
			t.Errorf("must-keep %d: %s, want %s", k.Seq, k.Status, want[k.Seq])
		}
	}
	if rep.Gate != "failed" {
		t.Error("gate must fail")
	}
	// With the shipped behaviour (everything as recorded) the gate holds.
	same := func(e register.Entry, _ judge.Memory) (Redecision, error) {
		return Redecision{Decision: e.Decision, Rules: e.Rules}, nil
	}
	if rep, _ = Replay(each(es), same, mk); rep.Gate != Held || rep.Changed != 0 {
		t.Errorf("identity replay: gate %s changed %d", rep.Gate, rep.Changed)
	}
}
