package census

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var ciDir = filepath.Join("..", "testdata", "ci")

// TestCIGitHubRecord reads `gh run list --json
// conclusion,createdAt,workflowName,event` exactly as gh prints it to a pipe
// (one compact array), the same array indented (as gh prints it to a
// terminal, colours aside), and `gh run view --json` objects mixed with our
// JSON Lines.
func TestCIGitHubRecord(t *testing.T) {
	list := filepath.Join(ciDir, "gh-run-list.json")
	nov := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	ci, err := ReadCI(list, nov, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	// In November: success ×3, failure ×2, one in progress, cancelled and
	// skipped give no verdict; the timed_out run is in October.
	want := CIStops{Runs: 5, Failed: 2, InProgress: 1, NoVerdict: 2, Format: CIFormGitHub}
	if *ci != want {
		t.Errorf("gh run list: %+v, want %+v", *ci, want)
	}
	all, err := ReadCI(list, time.Time{}, time.Time{})
	if err != nil || all.Runs != 6 || all.Failed != 3 {
		t.Errorf("gh run list, no window: %+v %v (timed_out is a failed gate)", all, err)
	}

	raw, _ := os.ReadFile(list)
	var ind bytes.Buffer
	if err := json.Indent(&ind, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	indented := filepath.Join(t.TempDir(), "indented.json")
	os.WriteFile(indented, ind.Bytes(), 0o644)
	if got, err := ReadCI(indented, nov, time.Time{}); err != nil || *got != want {
		t.Errorf("indented: %+v %v", got, err)
	}

	view, err := ReadCI(filepath.Join(ciDir, "gh-run-view.json"), nov, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if w := (CIStops{Runs: 2, Failed: 1, InProgress: 1, Format: "github+jsonl"}); *view != w {
		t.Errorf("gh run view + jsonl: %+v, want %+v", *view, w)
	}

	// Through Run, into stops.json: the workflow names never come out.
	_, out := run(t, Options{TranscriptDirs: []string{formsDir}, CI: list})
	for _, name := range []string{"Nightly", "Deploy docs", "Release", "workflowName", "workflow_dispatch", "pull_request"} {
		if bytes.Contains(out, []byte(name)) {
			t.Errorf("stops.json carries %q from the CI file", name)
		}
	}
}

func TestCIBadInput(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ body, want string }{
		"no createdAt":  {`[{"conclusion":"success","workflowName":"CI"}]`, "line 1: a GitHub run needs createdAt"},
		"bad time":      {"[\n{\"conclusion\":\"success\",\"createdAt\":\"yesterday\"}\n]", "line 2: createdAt"},
		"no conclusion": {`{"createdAt":"2026-11-30T18:39:57Z","event":"push"}`, "needs conclusion"},
		"not json":      {"{\"time\":\"2026-11-05T10:00:00Z\",\n\"gate\":", "line 1: not JSON"},
		"scalar":        {"{\"time\":\"2026-11-05T10:00:00Z\",\"gate\":\"a\",\"result\":\"pass\"}\n42\n", "line 2: a value that is neither"},
		"array of nums": {`[1,2]`, "not an object"},
		"other object":  {`{"name":"x"}`, "want {"},
		"bad result":    {`{"time":"2026-11-05T10:00:00Z","gate":"lint","result":"maybe"}`, `result must be "pass" or "fail"`},
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(p, []byte(tc.body), 0o644)
		_, err := ReadCI(p, time.Time{}, time.Time{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
	if _, err := ReadCI(dir, time.Time{}, time.Time{}); err == nil {
		t.Error("a directory as the CI file must be refused")
	}
}

func FuzzCI(f *testing.F) {
	for _, n := range []string{"gh-run-list.json", "gh-run-view.json"} {
		b, _ := os.ReadFile(filepath.Join(ciDir, n))
		f.Add(b)
	}
	f.Add([]byte(`[{"conclusion":"success","createdAt":"2026-11-30T18:39:57Z"}] {"time":"2026-11-05T10:00:00Z","gate":"a","result":"fail"}`))
	p := filepath.Join(f.TempDir(), "ci")
	f.Fuzz(func(t *testing.T, b []byte) {
		os.WriteFile(p, b, 0o644)
		ci, err := ReadCI(p, time.Time{}, time.Time{})
		if err == nil && (ci.Failed > ci.Runs || ci.Runs < 0) {
			t.Fatalf("failed %d > runs %d", ci.Failed, ci.Runs)
		}
	})
}
