package claudecode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/e2e/e2eutil"
)

// truthCounts are the stops the scenario knows, by census column.
type truthCounts struct {
	Sentinel          int64 `json:"sentinel"`
	UnconfirmedMarker int64 `json:"unconfirmed_marker"` // another hook printed sentinel's marker
	OtherHooks        int64 `json:"other_hooks"`
	Rules             int64 `json:"permission_rules"`
	NoHuman           int64 `json:"no_human_mode"`
	User              int64 `json:"user"`
	Classifier        int64 `json:"classifier"`
	Approved          int64 `json:"human_approved"`         // the human's Yes at any prompt
	Declined          int64 `json:"human_declined"`         // the human's No at any prompt
	AskApproved       int64 `json:"sentinel_asks_approved"` // at sentinel's asks
	AskDeclined       int64 `json:"sentinel_asks_declined"`
	Calls             int64 `json:"tool_calls"`
}

func (c truthCounts) total() int64 {
	return c.Sentinel + c.UnconfirmedMarker + c.OtherHooks + c.Rules + c.NoHuman + c.User + c.Classifier
}

func countTruth(calls []*call) truthCounts {
	var n truthCounts
	for _, c := range calls {
		x := c.Expect
		n.Calls++
		switch x.Stopper {
		case bySentinel:
			n.Sentinel++
		case byOtherHook:
			if x.Marker {
				n.UnconfirmedMarker++
			} else {
				n.OtherHooks++
			}
		case byRules:
			n.Rules++
		case byNoHuman:
			n.NoHuman++
		case byUser:
			n.User++
		case byClassifier:
			n.Classifier++
		}
		switch x.Human {
		case "yes":
			n.Approved++
			if x.Hook == "ask" {
				n.AskApproved++
			}
		case "no":
			n.Declined++
			if x.Hook == "ask" {
				n.AskDeclined++
			}
		}
	}
	return n
}

// jsonTree is decoded JSON with a path getter.
type jsonTree = e2eutil.JSONTree

// checkCensus runs `sentinel census` over the transcripts Claude Code wrote
// (and the run's register) and compares every column with the truth.
func checkCensus(t *testing.T, w *workspace, m mode, calls []*call) {
	t.Helper()
	var rep jsonTree
	w.sentinelJSON(t, &rep, "census", "--out", "-", "--transcripts", filepath.Join(w.home, ".claude", "projects"))
	n := countTruth(calls)
	eq := func(path string, want int64) {
		t.Helper()
		got, ok := rep.Num(path)
		tally(path, want, got, ok)
		check(t, "census", ok && got == want, "%s: census %s = %s, truth %d", m.Name, path, show(got, ok), want)
	}
	eq("tool_calls.count", n.Calls)
	eq("stops.total", n.total())
	eq("stops.sentinel.total", n.Sentinel)
	eq("stops.sentinel.register_matched", n.Sentinel)
	eq("stops.unconfirmed_marker.total", n.UnconfirmedMarker)
	eq("stops.other_hooks.total", n.OtherHooks)
	eq("stops.permission_rules.total", n.Rules)
	eq("stops.no_human_mode.total", n.NoHuman)
	eq("stops.user.total", n.User)
	eq("stops.classifier.total", n.Classifier)
	eq("human_at_prompt.approved", n.Approved)
	eq("human_at_prompt.declined", n.Declined)
}

// agg sums, over the runs, each census column's truth and what census said.
type agg struct {
	truth, got int64
	missing    int // runs where the column was absent or null
}

var (
	aggOrder []string
	aggCells = map[string]*agg{}
	outcomeN struct{ calls, equal int }
)

func tally(path string, want, got int64, ok bool) {
	reportMu.Lock()
	defer reportMu.Unlock()
	a := aggCells[path]
	if a == nil {
		a = &agg{}
		aggCells[path] = a
		aggOrder = append(aggOrder, path)
	}
	a.truth += want
	if ok {
		a.got += got
	} else {
		a.missing++
	}
}

func show(v int64, ok bool) string {
	if !ok {
		return "absent/null"
	}
	return fmt.Sprint(v)
}

// checkOutcomes runs `sentinel outcomes` and compares each decision's
// outcome with what happened.
func checkOutcomes(t *testing.T, w *workspace, m mode, calls []*call) {
	t.Helper()
	var rep struct {
		Outcomes []struct {
			ToolUseID string `json:"tool_use_id"`
			Decision  string `json:"decision"`
			Outcome   string `json:"outcome"`
		} `json:"outcomes"`
		Summary jsonTree `json:"summary"`
	}
	w.sentinelJSON(t, &rep, "outcomes", "--json", "--all", "--transcripts", filepath.Join(w.home, ".claude", "projects"))
	got := map[string]string{}
	for _, o := range rep.Outcomes {
		got[o.ToolUseID] = o.Outcome
	}
	for _, c := range calls {
		want := wantOutcome(c.Expect)
		key := ""
		switch {
		case c.Expect.Hook != c.Decision:
			key = "headless-unattended" // the decision itself is wrong; see checkCalls
		case c.Expect.Failed:
			key = "post-failure"
		}
		check(t, key, got[c.ToolUseID] == want, "%s %s: outcomes says %q, truth %q", m.Name, c.Step, got[c.ToolUseID], want)
		reportMu.Lock()
		outcomeN.calls++
		if got[c.ToolUseID] == want {
			outcomeN.equal++
		}
		reportMu.Unlock()
	}
	n := countTruth(calls)
	for path, want := range map[string]int64{"asks.approved": n.AskApproved, "asks.declined": n.AskDeclined, "denies.breached": 0} {
		v, ok := rep.Summary.Num(path)
		check(t, "outcomes", ok && v == want, "%s: outcomes summary %s = %s, truth %d", m.Name, path, show(v, ok), want)
	}
}

// wantOutcome is the outcome the truth implies for sentinel's decision.
func wantOutcome(x expect) string {
	switch x.Hook {
	case "deny":
		return "held"
	case "ask":
		switch x.Human {
		case "yes":
			return "approved"
		case "no":
			return "declined"
		}
		return "held" // nobody answered: the ask should have been a deny
	}
	if x.Stopper == "" {
		return "ran" // ran and failed is ran
	}
	return "not_run"
}

// SaveEnv names a directory where each run's transcripts, register and
// truth are copied (testdata/claudecode/<version>/ in the repository).
const SaveEnv = "SENTINEL_E2E_SAVE"

// truthFile is what a saved run's truth.json holds.
type truthFile struct {
	ClaudeCode     string      `json:"claude_code_version"`
	Run            string      `json:"run"`
	PermissionMode string      `json:"permission_mode"`
	Headless       bool        `json:"headless"`
	Calls          []truthCall `json:"calls"`
	Census         truthCounts `json:"census_truth"`
	Note           string      `json:"note"`
}

type truthCall struct {
	ToolUseID string `json:"tool_use_id"`
	Step      string `json:"step"`
	Tool      string `json:"tool"`
	Input     string `json:"input"`
	// SentinelDecision is what sentinel should answer (the truth);
	// RegisterDecision what this build's register recorded.
	SentinelDecision string `json:"sentinel_decision"`
	RegisterDecision string `json:"register_decision"`
	StoppedBy        string `json:"stopped_by"` // "" ran
	Marker           bool   `json:"marker"`
	Ran              bool   `json:"ran"`
	Failed           bool   `json:"failed"`
	HumanAnswer      string `json:"human_answer"` // yes, no, "" (no prompt)
	Outcome          string `json:"outcome"`      // what outcomes should say
}

// bulky are transcript records that hold no tool call or result (request
// shapes and the system prompt snapshots, 100+ KB a session): dropped from
// saved copies to keep testdata small; one run is kept whole.
var bulky = [][]byte{[]byte(`"type":"api-request-shape"`), []byte(`"type":"api-request-blob"`), []byte(`"type":"prompt_snapshot"`)}

const keptWhole = "i-default-no"

func (w *workspace) save(t *testing.T, m mode, calls []*call) {
	dir := os.Getenv(SaveEnv)
	if dir == "" {
		return
	}
	dir = filepath.Join(dir, m.Name)
	must(t, os.RemoveAll(dir))
	must(t, os.MkdirAll(dir, 0o755))
	tf := truthFile{ClaudeCode: w.e.version, Run: m.Name, PermissionMode: m.PermissionMode, Headless: m.Headless,
		Census: countTruth(calls),
		Note:   "HOME is ~; sentinel's own stops are confirmed by register.json (sentinel log --json); the other hook printed sentinel's marker (marker true, not sentinel)."}
	for _, c := range calls {
		x := c.Expect
		tf.Calls = append(tf.Calls, truthCall{ToolUseID: c.ToolUseID, Step: c.Step, Tool: c.Tool, Input: c.Input,
			SentinelDecision: x.Hook, RegisterDecision: c.Decision, StoppedBy: x.Stopper, Marker: x.Marker,
			Ran: x.Stopper == "", Failed: x.Failed, HumanAnswer: x.Human, Outcome: wantOutcome(x)})
	}
	writeJSONFile(t, filepath.Join(dir, "truth.json"), tf)
	var reg json.RawMessage
	w.sentinelJSON(t, &reg, "log", "--json", "-n", "0")
	must(t, os.WriteFile(filepath.Join(dir, "register.json"), []byte(w.short(string(reg))), 0o644))
	w.copyTranscripts(t, dir, m.Name == keptWhole)
}

func containsAny(line []byte, pats [][]byte) bool {
	for _, p := range pats {
		if bytes.Contains(line, p) {
			return true
		}
	}
	return false
}

// copyTranscripts copies the transcripts Claude Code wrote into
// dir/projects, the project folder's name made stable, dropping the bulky
// records unless whole.
func (w *workspace) copyTranscripts(t *testing.T, dir string, whole bool) {
	for _, f := range w.transcripts(t) {
		rel, _ := filepath.Rel(filepath.Join(w.home, ".claude", "projects"), f)
		// The project directory's name holds the workspace path: make it stable.
		parts := strings.SplitN(rel, string(filepath.Separator), 2)
		parts[0] = "-home-e2e-proj"
		dst := filepath.Join(dir, "projects", filepath.Join(parts...))
		must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		raw, err := os.ReadFile(f)
		must(t, err)
		var out bytes.Buffer
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if !whole && containsAny(line, bulky) {
				continue
			}
			out.Write(line)
			out.WriteByte('\n')
		}
		must(t, os.WriteFile(dst, out.Bytes(), 0o644))
	}
}
