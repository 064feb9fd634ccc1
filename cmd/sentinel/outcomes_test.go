package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// TestStreamOutcomesJSON: the streamed `outcomes --json` is the same JSON
// value as the whole report marshalled at once from the Go join (the
// output before it streamed), with and without --all, and for a register
// with no flag at all.
func TestStreamOutcomesJSON(t *testing.T) {
	for _, n := range []int{0, 3, 1200} {
		r, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		err = register.BulkLoad(r, n, func(i int) *register.Entry {
			e := &register.Entry{Kind: register.KindDecision, Time: at.Add(time.Duration(i) * time.Second), Tool: "Bash",
				ToolUseID: fmt.Sprintf("toolu_%d", i/2), Decision: []string{"allow", "ask", "deny"}[i%3], Rules: []string{}}
			if i%2 == 1 {
				e.Kind, e.Decision, e.Label = register.KindOutcome, "", register.LabelRan
			}
			if e.Decision != "allow" && e.Decision != "" {
				e.Rules = []string{"R"}
			}
			return e
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, all := range []bool{false, true} {
			var got bytes.Buffer
			brs, err := streamOutcomes(&got, r, nil, all, true, "/nowhere")
			if err != nil {
				t.Fatal(err)
			}
			shown, sum, err := outcome.JoinWith(outcome.Entries(r), nil, outcome.Options{All: all})
			if err != nil {
				t.Fatal(err)
			}
			if shown == nil {
				shown = []outcome.Result{}
			}
			var want bytes.Buffer
			if err := protoJSON(&want, map[string]any{"outcomes": shown, "summary": sum.Cells(), "counts": sum, "transcripts": "/nowhere"}); err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got.Bytes(), &g); err != nil {
				t.Fatalf("n=%d all=%v: not JSON: %v\n%s", n, all, err, got.String())
			}
			json.Unmarshal(want.Bytes(), &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("n=%d all=%v:\n got %s\nwant %s", n, all, got.String(), want.String())
			}
			if (sum.Denies.Breached > 0) != (len(brs) > 0) || len(brs) != sum.Denies.Breached {
				t.Errorf("n=%d: %d breaches returned, %d counted", n, len(brs), sum.Denies.Breached)
			}
		}
	}
}
