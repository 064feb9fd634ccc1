package census

import (
	"encoding/json"
	"github.com/sentinel-guard/sentinel/internal/spill"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// ccRoot holds transcripts the real Claude Code wrote, with their truth
// (testdata/claudecode/README.md; written by the e2e suite).
const ccRoot = "../testdata/claudecode"

type ccTruth struct {
	Run   string `json:"run"`
	Calls []struct {
		ToolUseID        string `json:"tool_use_id"`
		Step             string `json:"step"`
		RegisterDecision string `json:"register_decision"`
		Outcome          string `json:"outcome"`
		Failed           bool   `json:"failed"`
		Input            string `json:"input"`
	} `json:"calls"`
	Census map[string]int64 `json:"census_truth"`
}

// ccEntry is a line of register.json (sentinel log --json): the input is
// an object there, so it is read apart and not replayed.
type ccEntry struct {
	Kind      string    `json:"kind"`
	Time      time.Time `json:"time"`
	SessionID string    `json:"session_id"`
	ToolUseID string    `json:"tool_use_id"`
	Tool      string    `json:"tool"`
	Decision  string    `json:"decision"`
	Rules     []string  `json:"rules"`
	Attended  bool      `json:"attended"`
	Label     string    `json:"label"`
	Seq       int64     `json:"seq"`
}

// loadCCRegister appends a run's register.json to a fresh real register in
// sequence order (new hashes; what the census joins on is kept).
func loadCCRegister(t *testing.T, path string) *register.Register {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var es []ccEntry
	if err := json.Unmarshal(data, &es); err != nil {
		t.Fatal(err)
	}
	reg, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	for i := len(es) - 1; i >= 0; i-- { // log prints newest first
		e := es[i]
		if e.Rules == nil {
			e.Rules = []string{}
		}
		re := register.Entry{Kind: e.Kind, Time: e.Time, SessionID: e.SessionID, ToolUseID: e.ToolUseID, Tool: e.Tool,
			Decision: e.Decision, Rules: e.Rules, Attended: e.Attended, Label: e.Label, Input: []byte(`{}`)}
		if err := reg.Append(&re); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// TestClaudeCodeTruth: over every run the real Claude Code wrote, census and
// outcomes equal the truth for every stopper and every flag.
func TestClaudeCodeTruth(t *testing.T) {
	runs, _ := filepath.Glob(filepath.Join(ccRoot, "*", "*", "truth.json"))
	if len(runs) == 0 {
		t.Skip("no transcripts of the real Claude Code under " + ccRoot)
	}
	for _, tp := range runs {
		dir := filepath.Dir(tp)
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			var truth ccTruth
			data, err := os.ReadFile(tp)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &truth); err != nil {
				t.Fatal(err)
			}
			reg := loadCCRegister(t, filepath.Join(dir, "register.json"))
			projects := filepath.Join(dir, "projects")
			r, js := run(t, Options{TranscriptDirs: []string{projects}, Register: outcome.Entries(reg)})
			// Count-only over the real harness's files too.
			out := strings.ReplaceAll(string(js), SchemaURL, "")
			for _, c := range truth.Calls {
				if len(c.Input) >= 8 && strings.Contains(out, c.Input) {
					t.Errorf("stops.json holds the input %q", c.Input)
				}
			}
			got := stopCounts(r)
			got["human_approved"] = v(r.HumanAtPrompt.Approved)
			got["human_declined"] = v(r.HumanAtPrompt.Declined)
			got["tool_calls"] = v(r.ToolCalls.Count)
			got["sentinel_asks_approved"] = v(r.Outcomes.Asks.Approved)
			got["sentinel_asks_declined"] = v(r.Outcomes.Asks.Declined)
			for k, want := range truth.Census {
				if got[k] != want {
					t.Errorf("%s = %d, want %d", k, got[k], want)
				}
			}
			// Every call of a run with the hook installed was judged.
			if r.Unguarded.Count == nil || *r.Unguarded.Count != 0 || r.Unguarded.Sessions == nil || *r.Unguarded.Sessions != 0 {
				t.Errorf("unguarded %+v, want 0 calls in 0 sessions", r.Unguarded)
			}

			// outcomes, through the same reader.
			ans, _, err := outcome.ReadAnswers([]string{projects}, true)
			if err != nil {
				t.Fatal(err)
			}
			res, _, err := outcome.Join(outcome.Entries(reg), ans)
			if err != nil {
				t.Fatal(err)
			}
			status := map[string]string{}
			for _, x := range res {
				status[x.ToolUseID] = x.Status
			}
			outcomes := map[string]bool{}
			reg.Each(1, func(e *register.Entry) error {
				outcomes[e.ToolUseID] = outcomes[e.ToolUseID] || e.Kind == register.KindOutcome
				return nil
			})
			for _, c := range truth.Calls {
				want := c.Outcome
				// An ask the harness rejected because nobody could answer
				// (this build asked where it should deny headless): the call
				// did not run, which the truth names after the deny, held.
				if c.RegisterDecision == "ask" && want == outcome.Held {
					want = outcome.Unanswered
				}
				if c.RegisterDecision == "" {
					continue
				}
				if c.Failed && !outcomes[c.ToolUseID] {
					// Recorded before install registered PostToolUseFailure: the
					// register cannot know this call ran (the gap issue 10.4 closed).
					t.Logf("%s: ran and failed, but this run's install had no PostToolUseFailure hook", c.Step)
					want = outcome.NotRun
				}
				if got := status[c.ToolUseID]; got != want {
					t.Errorf("%s (%s, register %s): outcome %q, want %q", c.Step, c.ToolUseID, c.RegisterDecision, got, want)
				}
			}
		})
	}
}

// TestClaudeCodeUnguarded: two sessions the real Claude Code ran, the
// second with disableAllHooks (e2e TestUnguardedSession): its three calls
// have no decision, and the census and the outcome join count exactly them,
// in one session; the first session's calls are judged.
func TestClaudeCodeUnguarded(t *testing.T) {
	dir := filepath.Join(ccRoot, "unguarded", "2.1.328")
	data, err := os.ReadFile(filepath.Join(dir, "unguarded.json"))
	if err != nil {
		t.Skip("no unguarded run of the real Claude Code under " + dir)
	}
	var want struct {
		IDs []string `json:"unguarded_tool_use_ids"`
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	reg := loadCCRegister(t, filepath.Join(dir, "register.json"))
	projects := filepath.Join(dir, "projects")
	r, _ := run(t, Options{TranscriptDirs: []string{projects}, Register: outcome.Entries(reg)})
	if c := r.Unguarded; c.Count == nil || *c.Count != int64(len(want.IDs)) || c.Sessions == nil || *c.Sessions != 1 {
		t.Errorf("census unguarded %+v, want %d calls in 1 session", c, len(want.IDs))
	}
	// The same over SQLite (the register's own JudgedIDs), and the ids.
	ans, _, err := outcome.ReadAnswers([]string{projects}, true)
	if err != nil {
		t.Fatal(err)
	}
	us, err := outcome.UnguardedIn(reg, ans.Calls)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, u := range us {
		got[u.ToolUseID] = true
		if u.Session == "" || u.Time.IsZero() || u.Tool != "Bash" {
			t.Errorf("unguarded call without its place: %+v", u)
		}
	}
	for _, id := range want.IDs {
		if !got[id] {
			t.Errorf("%s is not counted unguarded", id)
		}
	}
	if len(us) != len(want.IDs) {
		t.Errorf("%d unguarded calls, want %d: %+v", len(us), len(want.IDs), us)
	}
	// Without transcripts the count is null with its reason, never 0.
	r2, _ := run(t, Options{Register: outcome.Entries(reg)})
	if r2.Unguarded.Count != nil {
		t.Errorf("no transcripts read, unguarded %d", *r2.Unguarded.Count)
	}
	named := false
	for _, n := range r2.NotMeasured {
		named = named || n.Key == "unguarded.count"
	}
	if !named {
		t.Errorf("a null unguarded count without its reason: %+v", r2.NotMeasured)
	}
}

// TestClaudeCodeSpilled: the same truths (and the synthetic forms, window
// and forked copies) with every map of the join on
// disk from its second entry (internal/spill), as at 10M calls.
func TestClaudeCodeSpilled(t *testing.T) {
	spilled := spill.OnDisk(t)
	t.Run("truth", TestClaudeCodeTruth)
	t.Run("unguarded", TestClaudeCodeUnguarded)
	t.Run("forms", TestDenialForms)
	t.Run("window", TestWindow)
	t.Run("forked", TestForkedCopiesCountOnce)
	t.Run("codex", TestCodexRollouts)
	t.Run("codex+claude", TestCodexBesideClaudeCode)
	if !spilled() {
		t.Error("no map moved to disk: the disk path was not tested")
	}
}
