package census

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
)

// TestCodexTruth counts each run the Codex e2e suite kept
// (testdata/codex/0.169.0/e2e: the real Codex, the real hook, its
// register) and compares the columns a rollout records with the run's
// truth.json.
func TestCodexTruth(t *testing.T) {
	runs, err := filepath.Glob(filepath.Join("..", "testdata", "codex", "0.169.0", "e2e", "*", "truth.json"))
	if err != nil || len(runs) == 0 {
		t.Fatalf("no saved runs: %v", err)
	}
	for _, tf := range runs {
		dir := filepath.Dir(tf)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var truth struct {
				Calls []struct {
					ToolUseID        string `json:"tool_use_id"`
					RegisterDecision string `json:"register_decision"`
					StoppedBy        string `json:"stopped_by"`
					Ran              bool   `json:"ran"`
				} `json:"calls"`
			}
			raw, err := os.ReadFile(tf)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &truth); err != nil {
				t.Fatal(err)
			}
			reg := loadCCRegister(t, filepath.Join(dir, "register.json"))
			var sentinel, other, unguarded int64
			for _, c := range truth.Calls {
				switch {
				case c.RegisterDecision == "":
					unguarded++
				case c.StoppedBy == "sentinel" && !c.Ran:
					sentinel++
				case c.StoppedBy == "other_hooks":
					other++
				}
			}
			r, _ := run(t, Options{TranscriptDirs: []string{filepath.Join(dir, "sessions")}, Register: outcome.Entries(reg), Open: reg, RuleClass: judge.ClassOf})
			eq := func(name string, got *int64, want int64) {
				t.Helper()
				if got == nil || *got != want {
					t.Errorf("%s = %v, truth %d", name, show(got), want)
				}
			}
			eq("tool_calls.count", r.ToolCalls.Count, int64(len(truth.Calls)))
			eq("stops.total", r.Stops.Total, sentinel+other)
			eq("stops.sentinel.total", r.Stops.Sentinel.Total, sentinel)
			eq("stops.unconfirmed_marker.total", r.Stops.UnconfirmedMarker.Total, 0)
			eq("stops.other_hooks.total", r.Stops.OtherHooks.Total, other)
			eq("unguarded.count", r.Unguarded.Count, unguarded)
			if r.Stops.User.Total != nil || r.HumanAtPrompt.Declined != nil {
				t.Errorf("user / human_at_prompt counted over Codex alone")
			}
		})
	}
}
