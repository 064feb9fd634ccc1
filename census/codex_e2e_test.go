package census

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
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
			// The fields of `sentinel log --json` the census reads.
			var logged []struct {
				Seq       int64     `json:"seq"`
				Kind      string    `json:"kind"`
				Time      time.Time `json:"time"`
				SessionID string    `json:"session_id"`
				ToolUseID string    `json:"tool_use_id"`
				Tool      string    `json:"tool"`
				Decision  string    `json:"decision"`
				Rules     []string  `json:"rules"`
				Label     string    `json:"label"`
				Attended  bool      `json:"attended"`
			}
			for f, v := range map[string]any{tf: &truth, filepath.Join(dir, "register.json"): &logged} {
				raw, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(raw, v); err != nil {
					t.Fatal(err)
				}
			}
			sort.Slice(logged, func(i, j int) bool { return logged[i].Seq < logged[j].Seq })
			var entries []register.Entry
			for _, l := range logged {
				entries = append(entries, register.Entry{Seq: l.Seq, Kind: l.Kind, Time: l.Time, SessionID: l.SessionID, ToolUseID: l.ToolUseID,
					Tool: l.Tool, Decision: l.Decision, Rules: l.Rules, Label: l.Label, Attended: l.Attended})
			}
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
			src := func(fn func(register.Entry) error) error {
				for _, e := range entries {
					if err := fn(e); err != nil {
						return err
					}
				}
				return nil
			}
			r, _ := run(t, Options{TranscriptDirs: []string{filepath.Join(dir, "sessions")}, Register: src, RuleClass: judge.ClassOf})
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
