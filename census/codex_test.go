package census

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// codexDirs are the two probe runs of testdata/codex/0.169.0 (its e2e/
// runs are the suite's own).
var codexDirs = []string{filepath.Join("..", "testdata", "codex", "0.169.0", "other-hooks"),
	filepath.Join("..", "testdata", "codex", "0.169.0", "untrusted")}

// TestCodexRollouts counts the real Codex rollouts of testdata/codex
// against a register that answered the trusted run's calls: the hook that
// printed sentinel's marker for call 02 is confirmed only where the
// register holds the sentinel's ask for it, the exit-2 block of call 03 is
// another hook's, and every call of the untrusted run (Codex skipped the
// hook) is one the guard never saw. The harness's own columns are null.
func TestCodexRollouts(t *testing.T) {
	for _, tc := range []struct {
		name            string
		confirm02       bool
		sentinel, unans int64
		marker          int64
	}{
		{"register confirms 02", true, 1, 1, 0},
		{"no entry for 02", false, 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			at := time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)
			for _, c := range []struct{ id, decision string }{
				{"call_fakefca31588_00", "allow"}, {"call_fakefca31588_01", "allow"},
				{"call_fakefca31588_02", "ask"}, {"call_fakefca31588_04", "allow"},
			} {
				if c.decision == "ask" && !tc.confirm02 {
					continue
				}
				e := register.Entry{Kind: register.KindDecision, Tool: "Bash", ToolUseID: c.id, Decision: c.decision, Time: at,
					Input: []byte(`{"command":"x"}`)}
				if c.decision == "ask" {
					e.Rules = []string{judge.RuleGitResetHard}
				}
				if err := reg.Append(&e); err != nil {
					t.Fatal(err)
				}
			}
			r, _ := run(t, Options{TranscriptDirs: codexDirs, Register: outcome.Entries(reg), Open: reg, RuleClass: judge.ClassOf})
			if r.Sources.TranscriptFiles != 2 || r.Sources.CodexFiles != 2 {
				t.Fatalf("sources %+v", r.Sources)
			}
			st := r.Stops
			eq := func(name string, got *int64, want int64) {
				t.Helper()
				if got == nil || *got != want {
					t.Errorf("%s = %v, want %d", name, show(got), want)
				}
			}
			eq("tool_calls.count", r.ToolCalls.Count, 10)
			eq("stops.total", st.Total, 2)
			eq("stops.sentinel.total", st.Sentinel.Total, tc.sentinel)
			eq("stops.sentinel.unanswered_asks", st.Sentinel.UnansweredAsks, tc.unans)
			eq("stops.unconfirmed_marker.total", st.UnconfirmedMarker.Total, tc.marker)
			eq("stops.other_hooks.total", st.OtherHooks.Total, 1)
			// 03 (blocked by the other hook, never reached sentinel) and the
			// untrusted run's five.
			want := int64(6)
			if !tc.confirm02 {
				want = 7
			}
			eq("unguarded.count", r.Unguarded.Count, want)
			eq("unguarded.sessions", r.Unguarded.Sessions, 2)
			for name, v := range map[string]*int64{"classifier": st.Classifier.Total, "permission_rules": st.PermissionRules.Total,
				"no_human_mode": st.NoHumanMode.Total, "user": st.User.Total,
				"human_at_prompt.declined": r.HumanAtPrompt.Declined, "human_at_prompt.approved": r.HumanAtPrompt.Approved} {
				if v != nil {
					t.Errorf("%s = %d, want null (Codex does not record it)", name, *v)
				}
			}
			nm := map[string]string{}
			for _, n := range r.NotMeasured {
				nm[n.Key] = n.Reason
			}
			for _, k := range codexCells {
				if nm[k] != reasonCodexOnly {
					t.Errorf("not_measured %s: %q", k, nm[k])
				}
			}
			if r.Rates["harness_stops_per_100_tool_calls"].Value != nil {
				t.Errorf("harness stop rate over Codex alone: %v", *r.Rates["harness_stops_per_100_tool_calls"].Value)
			}
		})
	}
}

// TestCodexBesideClaudeCode: with Claude Code's transcripts read too, the
// harness's columns are counts again (Claude Code's), and not_measured
// says the Codex share of them is not.
func TestCodexBesideClaudeCode(t *testing.T) {
	r, _ := run(t, Options{TranscriptDirs: append([]string{formsDir}, codexDirs...)})
	if r.Sources.CodexFiles != 2 || r.Sources.TranscriptFiles <= 2 {
		t.Fatalf("sources %+v", r.Sources)
	}
	if r.Stops.User.Total == nil || r.Stops.PermissionRules.Total == nil {
		t.Fatalf("Claude Code's columns are null beside Codex")
	}
	nm := map[string]string{}
	for _, n := range r.NotMeasured {
		nm[n.Key] = n.Reason
	}
	for _, k := range codexCells {
		if nm[k+".codex"] != reasonCodexMixed || nm[k] != "" {
			t.Errorf("not_measured %s: %q / %q", k, nm[k+".codex"], nm[k])
		}
	}
}

func show(v *int64) any {
	if v == nil {
		return "null"
	}
	return *v
}
