package census

import (
	"bytes"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// TestTwoWitnesses: where the transcript and the register disagree about
// a sentinel stop, the disagreement is its own count, in stops.json and on
// the page.
func TestTwoWitnesses(t *testing.T) {
	reg := testRegister(t) // old14, new03 confirmed; reg_breach, reg_old in no transcript; old15 a marker without entry
	tm := time.Date(2026, 11, 7, 10, 0, 0, 0, time.UTC)
	for _, e := range []register.Entry{
		{ToolUseID: "toolu_new13", Decision: "deny", Attended: true},   // the transcript shows it ran
		{ToolUseID: "toolu_new02", Decision: "ask", Attended: false},   // the transcript shows a permission rule's stop
		{ToolUseID: "toolu_new13", Decision: "ask", Attended: true},    // an attended ask is no stop of its own
		{ToolUseID: "toolu_new01", Decision: "allow", Attended: false}, // an allow is no stop
		{ToolUseID: "", Decision: "deny"},                              // no call id: not compared
		{ToolUseID: "toolu_elsewhere", Decision: "deny"},               // a call in no transcript read
	} {
		e.Kind, e.Time, e.Tool, e.Input, e.Rules = register.KindDecision, tm, "Bash", []byte(`{"command":"x"}`), []string{}
		if err := reg.Append(&e); err != nil {
			t.Fatal(err)
		}
	}
	r, out := run(t, Options{TranscriptDirs: []string{formsDir}, Register: outcome.Entries(reg), Open: reg})
	d := r.Stops.Disagreement
	if d == nil {
		t.Fatalf("no disagreement cell:\n%s", out)
	}
	got := [4]int64{v(d.Total), v(d.TranscriptOnly), v(d.RegisterOnly), v(d.RegisterUnseen)}
	if want := [4]int64{3, 1, 2, 4}; got != want {
		t.Errorf("total, transcript_only, register_only, register_unseen = %v, want %v", got, want)
	}
	if v(d.TranscriptOnly) != v(r.Stops.UnconfirmedMarker.Total) {
		t.Error("transcript_only must be the unconfirmed marker stops")
	}
	var page bytes.Buffer
	if err := r.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page.Bytes(), []byte("not in the transcript that holds the call")) {
		t.Error("the page does not show the disagreement")
	}

	// The window: only Nov 7's entries are compared.
	r, _ = run(t, Options{TranscriptDirs: []string{formsDir}, Register: outcome.Entries(reg), Open: reg,
		Since: tm.Truncate(24 * time.Hour), Until: tm.Truncate(24 * time.Hour).Add(24 * time.Hour)})
	if d := r.Stops.Disagreement; d == nil || v(d.RegisterOnly) != 0 || v(d.RegisterUnseen) != 4 || v(d.TranscriptOnly) != 0 {
		// The calls of new13 and new02 are dated before Nov 7: outside the window, so unseen.
		t.Errorf("windowed: %d %d %d %d", v(d.Total), v(d.TranscriptOnly), v(d.RegisterOnly), v(d.RegisterUnseen))
	}

	// Without a register, or without transcripts, there is nothing to compare.
	r, _ = run(t, Options{TranscriptDirs: []string{formsDir}})
	if r.Stops.Disagreement != nil {
		t.Error("without a register the disagreement must be null")
	}
	r, _ = run(t, Options{Register: outcome.Entries(reg), Open: reg})
	if r.Stops.Disagreement != nil {
		t.Error("without transcripts the disagreement must be null")
	}
}
