package census

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/transcript"
)

const formsDir = "../testdata/transcripts/forms/projects"

var fixedNow = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

// run counts, and checks the JSON output against the schema.
func run(t *testing.T, o Options) (*Report, []byte) {
	t.Helper()
	if o.Now == nil {
		o.Now = fixedNow
	}
	o.Generator = "sentinel test"
	r, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := Validate(buf.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	return r, buf.Bytes()
}

// TestDenialForms counts the synthetic transcripts in testdata/transcripts/
// forms, which hold every denial form of the facts file (README there lists
// each call and what it must count as).
func TestDenialForms(t *testing.T) {
	r, _ := run(t, Options{TranscriptDirs: []string{formsDir}})

	src := r.Sources
	wantSrc := Sources{TranscriptDirs: 1, TranscriptFiles: 6, SubagentFiles: 1, Records: 101,
		UnreadableLines: 4, DuplicateToolCalls: 3, OrphanResults: 1, Aborts: 2, UnknownDenialKinds: 1,
		Transcripts: "read", Register: "absent", CI: "absent"}
	if src != wantSrc {
		t.Errorf("sources:\n got %+v\nwant %+v", src, wantSrc)
	}
	if v(r.ToolCalls.Count) != 44 || r.ToolCalls.Bound != "upper" {
		t.Errorf("tool calls = %+v, want 44 (upper)", r.ToolCalls)
	}
	st := r.Stops
	got := stopCounts(r)
	// Without a register no stop is the sentinel's: its marker stops are
	// counted apart, and the sentinel's own column is null.
	want := map[string]int64{"total": 30, "classifier": 8, "permission_rules": 9, "no_human_mode": 3,
		"sentinel": -1, "unconfirmed_marker": 3, "other_hooks": 3, "user": 4}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stops:\n got %v\nwant %v", got, want)
	}
	if w := map[string]int64{"blocked": 4, "unavailable": 2, "parsing_error": 2}; !reflect.DeepEqual(st.Classifier.ByKind, w) {
		t.Errorf("classifier by kind = %v, want %v", st.Classifier.ByKind, w)
	}
	cats := nonZero(st.Classifier.ByCategory)
	if w := map[string]int64{"data_exfiltration": 1, "destructive_action": 1, "unspecified": 1, "other": 1}; !reflect.DeepEqual(cats, w) {
		t.Errorf("classifier by category = %v, want %v", cats, w)
	}
	classes := nonZero(st.PermissionRules.ByClass)
	if w := map[string]int64{"git_history": 2, "inline_code": 1, "file_read": 1, "file_write": 2,
		"network": 1, "package_install": 1, "other": 1}; !reflect.DeepEqual(classes, w) {
		t.Errorf("permission rules by class = %v, want %v", classes, w)
	}
	if st.CI != nil || st.Human.Value != nil || st.Human.Reason == "" {
		t.Errorf("ci and human must be null with a reason: %+v %+v", st.CI, st.Human)
	}
	if st.Sentinel.RegisterMatched != nil || r.Register != nil {
		t.Error("no register: cross-check and register must be null")
	}
	rate := r.Rates["stops_per_100_tool_calls"]
	if rate.Value == nil || *rate.Value != round4(100*30.0/44) || rate.Bound != "lower" {
		t.Errorf("rate = %+v", rate)
	}
	if !hasKey(r.NotMeasured, "stops.human") || !hasKey(r.NotMeasured, "stops.ci") || !hasKey(r.NotMeasured, "register") || !hasKey(r.NotMeasured, "stops.sentinel") {
		t.Errorf("not_measured = %+v", r.NotMeasured)
	}
}

// v is a cell's value, -1 for null.
func v(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

func stopCounts(r *Report) map[string]int64 {
	st := r.Stops
	return map[string]int64{
		"total": v(st.Total), "classifier": v(st.Classifier.Total), "permission_rules": v(st.PermissionRules.Total),
		"no_human_mode": v(st.NoHumanMode.Total), "sentinel": v(st.Sentinel.Total), "unconfirmed_marker": v(st.UnconfirmedMarker.Total),
		"other_hooks": v(st.OtherHooks.Total), "user": v(st.User.Total),
	}
}

func nonZero(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

func hasKey(nm []NotMeasured, key string) bool {
	for _, n := range nm {
		if n.Key == key {
			return true
		}
	}
	return false
}

// TestWindow counts only the records inside --since/--until: s-old is on
// Nov 2, s-new and s-fork on Nov 5, the subagent on Nov 6, s-damaged on
// Nov 7, s-orphan on Nov 8.
func TestWindow(t *testing.T) {
	since := time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC)
	until := time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)
	r, out := run(t, Options{TranscriptDirs: []string{formsDir}, Since: since, Until: until})
	// Nov 5: s-new (13 calls, 9 stops) and s-fork's one new call.
	if v(r.ToolCalls.Count) != 14 || v(r.Stops.Total) != 9 || v(r.Stops.User.Total) != 1 || v(r.Stops.UnconfirmedMarker.Total) != 1 {
		t.Errorf("window: %v, want calls 14 stops 9 user 1 marker 1", stopCounts(r))
	}
	if r.Period.From == nil || *r.Period.From != "2026-11-05" || *r.Period.To != "2026-11-05" || r.Period.Basis != "window" {
		t.Errorf("period %+v", r.Period)
	}
	if !bytes.Contains(out, []byte(`"since": "2026-11-05T00:00:00Z"`)) {
		t.Errorf("window not printed:\n%s", out)
	}
	// An empty window: no calls, so no rate (null, not 0).
	r, out = run(t, Options{TranscriptDirs: []string{formsDir}, Since: until.AddDate(1, 0, 0)})
	if v(r.ToolCalls.Count) != 0 || r.Rates["stops_per_100_tool_calls"].Value != nil {
		t.Errorf("empty window: %+v", r.Rates)
	}
	if !bytes.Contains(out, []byte(`"value": null`)) {
		t.Error("a rate without calls must print null")
	}
}

// TestForkedCopiesCountOnce: the same files read twice (as a second
// directory) add no call and no stop.
func TestForkedCopiesCountOnce(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, formsDir, dir)
	r, _ := run(t, Options{TranscriptDirs: []string{formsDir, dir}})
	if v(r.ToolCalls.Count) != 44 || v(r.Stops.Total) != 30 || r.Stops.PermissionRules.ByClass["git_history"] != 2 {
		t.Errorf("copies counted twice: %v", stopCounts(r))
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOversizedLine: a line over MaxLine is unreadable, skipped without
// being buffered, and the lines after it still count.
func TestOversizedLine(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"type":"user","message":{"content":"`)
	b.WriteString(strings.Repeat("x", transcript.MaxLine+10))
	b.WriteString("\"}}\n")
	b.WriteString(`{"type":"assistant","timestamp":"2026-11-01T00:00:00Z","message":{"content":[{"type":"tool_use","id":"toolu_after","name":"Bash","input":{"command":"ls"}}]}}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, "big.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ := run(t, Options{TranscriptDirs: []string{dir}})
	if r.Sources.OversizedLines != 1 || r.Sources.UnreadableLines != 1 || v(r.ToolCalls.Count) != 1 {
		t.Errorf("sources %+v calls %d", r.Sources, r.ToolCalls.Count)
	}
}

func TestMissingDirIsAnError(t *testing.T) {
	_, err := Run(Options{TranscriptDirs: []string{filepath.Join(t.TempDir(), "nope")}})
	if err == nil || !strings.Contains(err.Error(), "reading transcripts") {
		t.Fatalf("err = %v", err)
	}
}

func TestCIFile(t *testing.T) {
	dir := t.TempDir()
	ci := filepath.Join(dir, "ci.jsonl")
	os.WriteFile(ci, []byte(`{"time":"2026-11-05T10:00:00Z","gate":"lint","result":"fail"}
{"time":"2026-11-05T11:00:00Z","gate":"test","result":"pass"}

{"time":"2026-10-01T11:00:00Z","gate":"test","result":"fail"}
`), 0o644)
	r, _ := run(t, Options{TranscriptDirs: []string{formsDir}, CI: ci, Since: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	if r.Stops.CI == nil || *r.Stops.CI != (CIStops{Runs: 2, Failed: 1, Format: CIFormJSONL}) || r.Sources.CI != "present" {
		t.Errorf("ci = %+v", r.Stops.CI)
	}
	if v(r.Stops.Total) != 30 {
		t.Errorf("CI must not be in stops.total: %d", v(r.Stops.Total))
	}
	os.WriteFile(ci, []byte(`{"time":"2026-11-05T10:00:00Z","gate":"lint","result":"maybe"}`+"\n"), 0o644)
	if _, err := Run(Options{CI: ci, TranscriptDirs: []string{formsDir}}); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("bad CI line: err = %v", err)
	}
}

func TestSchemaRejects(t *testing.T) {
	_, out := run(t, Options{TranscriptDirs: []string{formsDir}})
	var doc map[string]any
	json.Unmarshal(out, &doc)
	stops := doc["stops"].(map[string]any)
	stops["human"] = map[string]any{"value": 0, "reason": "x"} // 0 where null is required
	bad, _ := json.Marshal(doc)
	if Validate(bad) == nil {
		t.Error("schema accepted a human cell of 0")
	}
	stops["human"] = map[string]any{"value": nil, "reason": "x"}
	stops["permission_rules"].(map[string]any)["by_class"].(map[string]any)["rm -rf /"] = 1
	bad, _ = json.Marshal(doc)
	if Validate(bad) == nil {
		t.Error("schema accepted a class outside the fixed list")
	}
}

// An Esc rejection is recognised by its toolUseResult string even when the
// content holds another text and is_error is absent; the same string on an
// mcp__ call's result is not matched.
func TestEscRejection(t *testing.T) {
	dir := t.TempDir()
	lines := `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_e1","name":"Bash","input":{"command":"ls"}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_e1","content":"The user doesn't want to proceed with this tool use."}]},"toolUseResult":"User rejected tool use"}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_e2","name":"mcp__x__y","input":{}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_e2","content":"User rejected tool use"}]},"toolUseResult":"User rejected tool use"}
`
	if err := os.WriteFile(filepath.Join(dir, "esc.jsonl"), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ := run(t, Options{TranscriptDirs: []string{dir}})
	if v(r.Stops.User.Total) != 1 || v(r.Stops.Total) != 1 || v(r.ToolCalls.Count) != 2 {
		t.Errorf("%v, want user 1 total 1 calls 2", stopCounts(r))
	}
}
