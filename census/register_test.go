package census

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// testRegister writes a real register beside the forms transcripts: the
// sentinel's denies of toolu_old14 and toolu_new03 (toolu_old15 has none),
// an ask the user rejected in the transcripts (toolu_new01), an ask that
// ran, a deny that ran anyway, an allow, an old deny, and grades.
func testRegister(t *testing.T) *register.Register {
	t.Helper()
	reg, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	day := func(d int) time.Time { return time.Date(2026, 11, d, 10, 0, 0, 0, time.UTC) }
	add := func(e register.Entry) {
		t.Helper()
		if e.Tool == "" {
			e.Tool = "Bash"
		}
		if err := reg.Append(&e); err != nil {
			t.Fatal(err)
		}
	}
	dec := func(kind, id, decision string, attended bool, d int, rules ...string) {
		add(register.Entry{Kind: kind, ToolUseID: id, Decision: decision, Attended: attended, Time: day(d), Rules: rules, Input: []byte(`{"command":"x"}`)})
	}
	dec(register.KindDecision, "toolu_old14", "deny", true, 2, judge.RuleGitPushForce)   // 1
	dec(register.KindDecision, "toolu_new03", "deny", false, 5, judge.RuleGitCleanForce) // 2
	dec(register.KindDecision, "toolu_new01", "ask", true, 5, judge.RuleGitResetHard)    // 3 declined
	dec(register.KindDecision, "toolu_reg_ran", "ask", true, 5, judge.RuleGitResetHard)  // 4 approved
	dec(register.KindError, "toolu_reg_breach", "deny", false, 6)                        // 5 breached
	dec(register.KindDecision, "toolu_reg_allow", "allow", true, 6)                      // 6
	dec(register.KindDecision, "toolu_reg_old", "deny", true, 1, judge.RuleGitResetHard) // 7
	add(register.Entry{Kind: register.KindOutcome, ToolUseID: "toolu_reg_ran", Label: "ran", Time: day(5)})
	add(register.Entry{Kind: register.KindOutcome, ToolUseID: "toolu_reg_breach", Label: "ran", Time: day(6)})
	for _, g := range []struct {
		ref   int64
		label string
	}{{1, "true"}, {2, "false"}, {2, "true"}, {3, "unclear"}, {4, "false"}, {6, "false"}} {
		add(register.Entry{Kind: register.KindGrade, Ref: g.ref, Label: g.label, Time: day(9)})
	}
	return reg
}

func TestRegisterCounts(t *testing.T) {
	reg := testRegister(t)
	r, _ := run(t, Options{TranscriptDirs: []string{formsDir}, Register: outcome.Entries(reg), RuleClass: judge.ClassOf})
	rc := r.Register
	if rc == nil || r.Sources.Register != "present" {
		t.Fatal("register not read")
	}
	if rc.Decisions != 7 || rc.Allow != 1 || rc.Errors != 1 ||
		rc.Ask != (Attendance{Attended: 2}) || rc.Deny != (Attendance{Attended: 2, Unattended: 2}) {
		t.Errorf("register counts: %+v", rc)
	}
	wantClass := map[string]*ClassFlags{
		judge.ClassDiscardWork: {Ask: Attendance{Attended: 2}, Deny: Attendance{Attended: 2, Unattended: 1}},
		"unjudged":             {Deny: Attendance{Unattended: 1}},
	}
	if !reflect.DeepEqual(rc.ByClass, wantClass) {
		t.Errorf("by class = %v, want %v", rc.ByClass, wantClass)
	}
	// Latest grade wins (seq 2: false then true); the allow's grade is not a flag's.
	if rc.Grades == nil || *rc.Grades != (Grades{True: 2, False: 1, Unclear: 1}) {
		t.Errorf("grades = %+v", rc.Grades)
	}
	if v := rc.SelfConcordance.Value; v == nil || *v != 2.0/3 {
		t.Errorf("self-concordance = %v, want 2/3", v)
	}
	sn := r.Stops.Sentinel
	// The register confirms two of the three marker stops; the third is
	// counted apart, as is every stop someone else printed the marker on.
	if v(sn.Total) != 2 || v(sn.RegisterMatched) != 2 || v(sn.RegisterUnmatched) != 1 || v(r.Stops.UnconfirmedMarker.Total) != 1 {
		t.Errorf("sentinel cross-check: %+v, marker %d", sn, v(r.Stops.UnconfirmedMarker.Total))
	}
	a, d := r.Outcomes.Asks, r.Outcomes.Denies
	got := []*int64{a.Total, a.Presented, a.Approved, a.Declined, a.Unanswered, a.Unknown, d.Held, d.Breached}
	want := []int64{2, 2, 1, 1, 0, 0, 3, 1}
	for i := range want {
		if got[i] == nil || *got[i] != want[i] {
			t.Errorf("outcomes[%d] = %d, want %d (asks total, presented, approved, declined, unanswered, unknown; denies held, breached)", i, v(got[i]), want[i])
		}
	}

	// The window keeps Nov 5 only: decisions 2, 3, 4.
	r, _ = run(t, Options{TranscriptDirs: []string{formsDir}, Register: outcome.Entries(reg), RuleClass: judge.ClassOf,
		Since: time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)})
	rc = r.Register
	if rc.Decisions != 3 || rc.Deny != (Attendance{Unattended: 1}) || *rc.Grades != (Grades{True: 1, False: 1, Unclear: 1}) {
		t.Errorf("windowed register: %+v grades %+v", rc, rc.Grades)
	}
}

// An empty register: counts are 0, but self-concordance has nothing to
// divide and stays null; without outcome entries approved/held are null.
func TestEmptyRegister(t *testing.T) {
	reg, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	r, out := run(t, Options{TranscriptDirs: []string{formsDir}, Register: outcome.Entries(reg)})
	if r.Register.Grades != nil || r.Register.SelfConcordance.Value != nil || r.Outcomes.Denies.Held != nil || r.Outcomes.Asks.Approved != nil {
		t.Errorf("empty register must give nulls:\n%s", out)
	}
	if v(r.Stops.Sentinel.Total) != 0 || v(r.Stops.UnconfirmedMarker.Total) != 3 || !hasKey(r.NotMeasured, "outcomes.denies.held") {
		t.Errorf("cross-check or not_measured wrong:\n%s", out)
	}
}

// The census recognises the hook's stops by the hook's own marker.
func TestMarkerIsTheHooks(t *testing.T) {
	if Marker != judge.Marker {
		t.Fatalf("census.Marker %q != judge.Marker %q", Marker, judge.Marker)
	}
}
