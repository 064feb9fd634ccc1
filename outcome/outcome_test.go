package outcome

import (
	"testing"

	"github.com/sentinel-guard/sentinel/register"
)

func TestReadRejections(t *testing.T) {
	rj, err := ReadRejections("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"toolu_ask_declined": true, "toolu_esc": true, "toolu_kind": true, "toolu_sub": true}
	for id := range want {
		if !rj.IDs[id] {
			t.Errorf("%s not seen as a user rejection", id)
		}
	}
	for id := range rj.IDs {
		if !want[id] {
			t.Errorf("%s wrongly seen as a user rejection", id)
		}
	}
	if rj.Files != 1 || rj.Skipped != 1 {
		t.Errorf("files %d skipped %d", rj.Files, rj.Skipped)
	}
	if rj, err := ReadRejections("testdata/none"); err != nil || len(rj.IDs) != 0 {
		t.Errorf("missing dir: %v %v", rj, err)
	}
}

func TestJoin(t *testing.T) {
	es := []register.Entry{
		{Seq: 1, Kind: register.KindDecision, Decision: "ask", ToolUseID: "a1"},
		{Seq: 2, Kind: register.KindDecision, Decision: "ask", ToolUseID: "toolu_ask_declined"},
		{Seq: 3, Kind: register.KindDecision, Decision: "ask", ToolUseID: "a3"},
		{Seq: 4, Kind: register.KindDecision, Decision: "deny", ToolUseID: "d1", Rules: []string{"GIT-RESET-HARD"}},
		{Seq: 5, Kind: register.KindDecision, Decision: "deny", ToolUseID: "d2"},
		{Seq: 6, Kind: register.KindDecision, Decision: "allow", ToolUseID: "l1"},
		{Seq: 7, Kind: register.KindDecision, Decision: "allow", ToolUseID: "l2"},
		{Seq: 8, Kind: register.KindOutcome, ToolUseID: "a1", Label: "ran"},
		{Seq: 9, Kind: register.KindOutcome, ToolUseID: "d1", Label: "ran"},
		{Seq: 10, Kind: register.KindOutcome, ToolUseID: "l1", Label: "ran"},
		{Seq: 11, Kind: register.KindOutcome, ToolUseID: "zz", Label: "ran"},
		{Seq: 12, Kind: register.KindGrade, Ref: 4, Label: "true"},
		{Seq: 13, Kind: register.KindError, Decision: "ask"},
	}
	each := func(fn func(register.Entry) error) error {
		for _, e := range es {
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	}
	rj, _ := ReadRejections("testdata")
	res, sum, err := Join(each, rj)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{1: Approved, 2: Declined, 3: Unknown, 4: Breached, 5: Held, 6: Ran, 7: NotRun, 13: Unknown}
	if len(res) != len(want) {
		t.Fatalf("%d results", len(res))
	}
	for _, r := range res {
		if r.Status != want[r.Seq] {
			t.Errorf("seq %d: %s, want %s", r.Seq, r.Status, want[r.Seq])
		}
		if r.Status == Unknown && r.Reason == "" {
			t.Errorf("seq %d: unknown without a reason", r.Seq)
		}
	}
	if sum.Asks.Presented != 4 || sum.Asks.Approved != 1 || sum.Asks.Declined != 1 || sum.Asks.Unknown != 2 ||
		sum.Denies.Held != 1 || sum.Denies.Breached != 1 || sum.Orphans != 1 || sum.OutcomeEntries != 4 {
		t.Errorf("summary %+v", sum)
	}
	br, _ := BreachesFrom(each)
	if len(br) != 1 || br[0].Seq != 4 || br[0].OutcomeSeq != 9 {
		t.Errorf("breaches %+v", br)
	}
}
