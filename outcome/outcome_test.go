package outcome

import (
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// TestReadAnswers: the older forms (texts, toolDenialKind) and the 2.1.328
// structured records, through the shared transcript reader. A result whose
// call was never seen is not text-matched (the same rule as the census).
func TestReadAnswers(t *testing.T) {
	a, src, err := ReadAnswers([]string{"testdata"}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"toolu_ask_declined": AnswerDeclined, "toolu_esc": AnswerDeclined, "toolu_kind": AnswerDeclined,
		"toolu_sub":   AnswerDeclined,
		"toolu_s_yes": AnswerApproved, "toolu_s_no": AnswerDeclined,
		"toolu_s_headless": AnswerUnanswered, "toolu_s_nomatch": AnswerUnanswered,
	}
	for id, w := range want {
		if got := a.Of(id); got != w {
			t.Errorf("%s: %q, want %q", id, got, w)
		}
	}
	for _, id := range []string{"toolu_rule", "toolu_mcp", "toolu_later", "toolu_orphan"} {
		if got := a.Of(id); got != "" {
			t.Errorf("%s wrongly read as %q", id, got)
		}
	}
	if a.Len() != len(want) {
		t.Errorf("%d answers, want %d", a.Len(), len(want))
	}
	if a.Files != 2 || src.UnreadableLines != 1 || src.OrphanResults != 1 || a.Structured != 3 {
		t.Errorf("files %d unreadable %d orphans %d structured %d", a.Files, src.UnreadableLines, src.OrphanResults, a.Structured)
	}
	if _, _, err := ReadAnswers([]string{"testdata/none"}, true); err == nil {
		t.Error("a missing dir must be an error (the caller decides)")
	}
}

func entries(es []register.Entry) func(func(register.Entry) error) error {
	return func(fn func(register.Entry) error) error {
		for _, e := range es {
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
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
		{Seq: 8, Kind: register.KindOutcome, ToolUseID: "a1", Label: LabelRan},
		{Seq: 9, Kind: register.KindOutcome, ToolUseID: "d1", Label: LabelRan},
		{Seq: 10, Kind: register.KindOutcome, ToolUseID: "l1", Label: LabelRan},
		{Seq: 11, Kind: register.KindOutcome, ToolUseID: "zz", Label: LabelRan},
		{Seq: 12, Kind: register.KindGrade, Ref: 4, Label: "true"},
		{Seq: 13, Kind: register.KindError, Decision: "ask"},
		{Seq: 14, Kind: register.KindDecision, Decision: "ask", ToolUseID: "toolu_s_yes"},      // approved at the prompt, no PostToolUse seen
		{Seq: 15, Kind: register.KindDecision, Decision: "ask", ToolUseID: "toolu_s_headless"}, // nobody could answer
		{Seq: 16, Kind: register.KindDecision, Decision: "deny", ToolUseID: "d3"},              // ran and failed: breached
		{Seq: 17, Kind: register.KindOutcome, ToolUseID: "d3", Label: LabelFailed},
		{Seq: 18, Kind: register.KindOutcome, ToolUseID: "l3", Label: LabelFailed}, // before its decision (a journal merge)
		{Seq: 19, Kind: register.KindDecision, Decision: "allow", ToolUseID: "l3"},
	}
	a, _, err := ReadAnswers([]string{"testdata"}, true)
	if err != nil {
		t.Fatal(err)
	}
	res, sum, err := Join(entries(es), a)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{1: Approved, 2: Declined, 3: Unknown, 4: Breached, 5: Held, 6: Ran, 7: NotRun, 13: Unknown,
		14: Approved, 15: Unanswered, 16: Breached, 19: Ran}
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
	if sum.Asks.Presented != 5 || sum.Asks.Approved != 2 || sum.Asks.Declined != 1 || sum.Asks.Unknown != 2 || sum.Asks.Unanswered != 1 ||
		sum.Denies.Held != 1 || sum.Denies.Breached != 2 || sum.Orphans != 1 || sum.OutcomeEntries != 6 || sum.FailedEntries != 2 ||
		sum.Allows.Ran != 2 || sum.Allows.NotRun != 1 || sum.Decisions != 12 {
		t.Errorf("summary %+v", sum)
	}
	br, _ := BreachesFrom(entries(es))
	if len(br) != 2 || br[0].Seq != 4 || br[0].OutcomeSeq != 9 || br[1].Seq != 16 {
		t.Errorf("breaches %+v", br)
	}
	// Flags only, and a window.
	res, _, _ = JoinWith(entries(es), a, Options{})
	for _, r := range res {
		if r.Decision == "allow" {
			t.Errorf("allow %d kept without All", r.Seq)
		}
	}
	es[0].Time = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	s2, _ := Summarize(entries(es), a, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC))
	if s2.Decisions != 1 || s2.Asks.Approved != 1 {
		t.Errorf("window: %+v", s2)
	}
}

// TestCells: a register with no outcome entries measures no held, breached,
// approved (without structured transcripts) or allows: null, not 0.
func TestCells(t *testing.T) {
	es := []register.Entry{
		{Seq: 1, Kind: register.KindDecision, Decision: "ask", ToolUseID: "a1"},
		{Seq: 2, Kind: register.KindDecision, Decision: "deny", ToolUseID: "d1"},
		{Seq: 3, Kind: register.KindDecision, Decision: "allow", ToolUseID: "l1"},
	}
	_, sum, _ := Join(entries(es), nil)
	c := sum.Cells()
	if c.Asks.Total == nil || *c.Asks.Total != 1 {
		t.Errorf("total must come from the register: %v", c.Asks.Total)
	}
	for name, p := range map[string]*int64{"presented": c.Asks.Presented, "approved": c.Asks.Approved, "declined": c.Asks.Declined,
		"unanswered": c.Asks.Unanswered, "unknown": c.Asks.Unknown, "held": c.Denies.Held, "breached": c.Denies.Breached,
		"ran": c.Allows.Ran, "not_run": c.Allows.NotRun} {
		if p != nil {
			t.Errorf("%s = %d, want null", name, *p)
		}
	}
	if len(c.NotMeasured) < 6 {
		t.Errorf("not measured: %+v", c.NotMeasured)
	}
	es = append(es, register.Entry{Seq: 4, Kind: register.KindOutcome, ToolUseID: "l1", Label: LabelRan})
	_, sum, _ = Join(entries(es), nil)
	c = sum.Cells()
	if c.Denies.Held == nil || *c.Denies.Held != 1 || c.Allows.Ran == nil || *c.Allows.Ran != 1 || c.Asks.Approved == nil || c.Asks.Declined != nil {
		t.Errorf("with outcomes: %+v", c)
	}
}
