package outcome

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinel-guard/sentinel/transcript"
)

// FuzzAnswers: transcripts hold text the agent and its tools wrote; reading
// them through the shared reader must never panic, and an answer is only
// ever one of the three.
func FuzzAnswers(f *testing.F) {
	for _, p := range []string{"testdata/rejections.jsonl", "testdata/structured.jsonl"} {
		seed, _ := os.ReadFile(p)
		f.Add(seed)
	}
	f.Add([]byte(`{"type":"user","toolDenialKind":"user-rejected","message":{"content":[{"type":"tool_result","tool_use_id":"x"}]}}`))
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":\"tool_result reject\"}}\n\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		a, _, err := ReadAnswers([]string{dir}, true)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		a.ids.Each(func(_ transcript.Key, v uint8) error {
			if v == 0 || int(v) >= len(answerCodes) {
				t.Fatalf("answer code %d", v)
			}
			return nil
		})
	})
}
