package outcome

import (
	"os"
	"strings"
	"testing"
)

// FuzzScan: transcripts hold text the agent and its tools wrote; reading
// them must never panic or keep an empty id.
func FuzzScan(f *testing.F) {
	seed, _ := os.ReadFile("testdata/rejections.jsonl")
	f.Add(string(seed))
	f.Add(`{"type":"user","toolDenialKind":"user-rejected","message":{"content":[{"type":"tool_result","tool_use_id":"x"}]}}`)
	f.Add("{\"type\":\"user\",\"message\":{\"content\":\"tool_result reject\"}}\n\n\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		rj := &Rejections{IDs: map[string]bool{}}
		if err := rj.scan(strings.NewReader(s)); err != nil {
			t.Fatal(err)
		}
		for id := range rj.IDs {
			if id == "" {
				t.Fatal("an empty tool_use_id was kept")
			}
		}
	})
}
