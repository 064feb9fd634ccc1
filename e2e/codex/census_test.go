package codex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/e2e/e2eutil"
)

type jsonTree = e2eutil.JSONTree

// checkCensus runs `sentinel census` over the rollouts Codex wrote (and
// the run's register) and compares every column with the truth: the
// columns Codex records equal it; the harness's own columns, which a
// rollout does not record, are null with a reason.
func checkCensus(t *testing.T, w *workspace, mode string, calls []*call, unguarded int64) {
	t.Helper()
	var rep jsonTree
	w.sentinelJSON(t, &rep, "census", "--out", "-", "--transcripts", w.sessions())
	var sentinel, other int64
	for _, c := range calls {
		switch c.Stop {
		case bySentinel:
			// A step waiting on pending work counts as what happened.
			if c.Pending == "" || !c.Ran {
				sentinel++
			}
		case byOtherHook:
			other++
		}
	}
	if unguarded > 0 {
		sentinel, other = 0, 0 // nothing was judged: nothing stopped
	}
	for path, want := range map[string]int64{
		"tool_calls.count":                int64(len(calls)),
		"stops.total":                     sentinel + other,
		"stops.sentinel.total":            sentinel,
		"stops.sentinel.register_matched": sentinel,
		"stops.unconfirmed_marker.total":  0,
		"stops.other_hooks.total":         other,
		"unguarded.count":                 unguarded,
		"sources.codex_files":             1,
	} {
		v, ok := rep.Get(path)
		f, isNum := v.(float64)
		check(t, "", ok && isNum && int64(f) == want, "%s: census %s = %v, truth %d", mode, path, v, want)
	}
	nm := map[string]bool{}
	if list, ok := rep["not_measured"].([]any); ok {
		for _, x := range list {
			if m, ok := x.(map[string]any); ok {
				nm[fmt.Sprint(m["key"])] = true
			}
		}
	}
	for _, path := range []string{"stops.classifier.total", "stops.permission_rules.total", "stops.no_human_mode.total", "stops.user.total",
		"human_at_prompt.declined", "human_at_prompt.approved"} {
		v, ok := rep.Get(path)
		check(t, "", ok && v == nil, "%s: census %s = %v, want null (a rollout does not record it)", mode, path, v)
		cell := strings.TrimSuffix(path, ".total")
		if i := strings.Index(cell, "human_at_prompt"); i >= 0 {
			cell = "human_at_prompt"
		}
		check(t, "", nm[cell], "%s: census %s is null without a not_measured reason", mode, cell)
	}
}

// checkOutcomes runs `sentinel outcomes` and compares each decision's
// outcome with what happened.
func checkOutcomes(t *testing.T, w *workspace, mode string, calls []*call) {
	t.Helper()
	var rep struct {
		Outcomes []struct {
			ToolUseID string `json:"tool_use_id"`
			Outcome   string `json:"outcome"`
		} `json:"outcomes"`
	}
	w.sentinelJSON(t, &rep, "outcomes", "--json", "--all", "--transcripts", w.sessions())
	got := map[string]string{}
	for _, o := range rep.Outcomes {
		got[o.ToolUseID] = o.Outcome
	}
	for _, c := range calls {
		var want string
		switch {
		case c.Decision == "":
			continue
		case c.Decision == "deny":
			want = "held"
		case c.Decision == "ask":
			want = "unanswered" // Codex shows a hook's question to nobody
		case c.Stop == "":
			want = "ran"
		default:
			want = "not_run"
		}
		check(t, c.Pending, got[c.ID] == want, "%s %s: outcomes says %q, truth %q", mode, c.Name, got[c.ID], want)
	}
}

// checkDoctorStale: doctor must report a hook Codex skips because its
// trust hash is stale, before it matters.
func checkDoctorStale(t *testing.T, w *workspace) {
	t.Helper()
	c := w.asNobody(w.e.sentinel, "doctor", "--codex")
	out, err := c.CombinedOutput()
	text := strings.ToLower(string(out))
	check(t, "codex-doctor", err != nil && strings.Contains(text, "codex") && (strings.Contains(text, "stale") || strings.Contains(text, "trust")),
		"sentinel doctor --codex with a stale trust hash: %v\n%s", err, tail(string(out), 1500))
}

// SaveEnv names a directory where each run's rollouts, register and truth
// are copied (testdata/codex/0.169.0/e2e in the repository).
const SaveEnv = "SENTINEL_E2E_SAVE"

type truthCall struct {
	ToolUseID        string `json:"tool_use_id"`
	Step             string `json:"step"`
	Tool             string `json:"tool"`
	SentinelDecision string `json:"sentinel_decision"`
	RegisterDecision string `json:"register_decision"`
	StoppedBy        string `json:"stopped_by"`
	Ran              bool   `json:"ran"`
}

func (w *workspace) save(t *testing.T, name string, calls []*call) {
	dir := os.Getenv(SaveEnv)
	if dir == "" {
		return
	}
	dir = filepath.Join(dir, name)
	must(t, os.RemoveAll(dir))
	must(t, os.MkdirAll(dir, 0o755))
	var tc []truthCall
	for _, c := range calls {
		tc = append(tc, truthCall{ToolUseID: c.ID, Step: c.Name, Tool: c.Tool, SentinelDecision: c.Hook, RegisterDecision: c.Decision,
			StoppedBy: c.Stop, Ran: c.Ran})
	}
	writeJSONFile(t, filepath.Join(dir, "truth.json"), map[string]any{"codex_version": w.e.version, "run": name, "calls": tc,
		"note": "HOME is /home/e2e; sentinel's stops are confirmed by register.json (sentinel log --json)"})
	var reg json.RawMessage
	w.sentinelJSON(t, &reg, "log", "--json", "-n", "0")
	must(t, os.WriteFile(filepath.Join(dir, "register.json"), []byte(strings.ReplaceAll(string(reg), w.home, "/home/e2e")), 0o644))
	for _, f := range w.rollouts() {
		rel, _ := filepath.Rel(w.codex, f)
		dst := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		raw, err := os.ReadFile(f)
		must(t, err)
		must(t, os.WriteFile(dst, []byte(strings.ReplaceAll(string(raw), w.home, "/home/e2e")), 0o644))
	}
}
