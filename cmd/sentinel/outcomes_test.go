package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/protocol"
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
			brs, err := streamOutcomes(&got, r, nil, all, true, "/nowhere", &rowCap{})
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
			if err := protoJSON(&want, map[string]any{"outcomes": shown, "summary": sum.Cells(), "counts": sum, "unguarded_sessions": []outcome.UnguardedSession{}, "transcripts": "/nowhere"}); err != nil {
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

// TestReplaySpillJSON: `replay --json` with the changes spilled to a file
// is byte for byte the report marshalled whole, and the table keeps only
// the first maxListed changes.
func TestReplaySpillJSON(t *testing.T) {
	for _, n := range []int{0, 10, 700} {
		r, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		err = register.BulkLoad(r, n, func(i int) *register.Entry {
			return &register.Entry{Kind: register.KindDecision, Time: time.Unix(int64(i), 0), Tool: "Bash", ToolUseID: fmt.Sprintf("t%d", i),
				Decision: []string{"allow", "ask", "deny"}[i%3], Rules: []string{}, Input: []byte(fmt.Sprintf(`{"command":"c%d"}`, i%5))}
		})
		if err != nil {
			t.Fatal(err)
		}
		decide := func(e register.Entry, _ judge.Memory) (protocol.Redecision, error) {
			return protocol.Redecision{Decision: []string{"allow", "deny", "ask", "allow", "ask"}[e.Input[13]-'0'], Rules: []string{"<R&>"}}, nil
		}
		src := protocol.Source{Each: outcome.Entries(r), Index: r}
		whole, err := protocol.ReplayFrom(src, decide, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		protoJSON(&want, &replayOutput{Source: "s", ReplayReport: whole})
		for _, asJSON := range []bool{true, false} {
			spill, err := newChangeSpill(asJSON)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := protocol.ReplayFrom(src, decide, nil, spill.add)
			if err != nil {
				t.Fatal(err)
			}
			if !asJSON {
				if want := min(maxListed, len(whole.Changes)); len(spill.first) != want || !reflect.DeepEqual(spill.first, whole.Changes[:want]) {
					t.Errorf("n=%d: the table keeps %d changes, want the first %d", n, len(spill.first), want)
				}
				continue
			}
			var got bytes.Buffer
			if err := spill.writeJSON(&got, &replayOutput{Source: "s", ReplayReport: rep}); err != nil {
				t.Fatal(err)
			}
			spill.close()
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("n=%d: spilled JSON differs\n got %s\nwant %s", n, got.String(), want.String())
			}
		}
	}
}
