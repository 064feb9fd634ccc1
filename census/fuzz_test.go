package census

import (
	"testing"
)

// FuzzLine feeds arbitrary transcript lines to the scanner: it must never
// panic, and every line is either a record or unreadable.
func FuzzLine(f *testing.F) {
	f.Add([]byte(`{"type":"user","toolDenialKind":"permission-rule","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"sentinel[X]: y","is_error":true}]}}`))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`))
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"Permission for this action has been denied. Reason: [Data"}]}]}}`))
	f.Add([]byte(`{"type":"user","message":{"content":"tool_result"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r := newReport(fixedNow(), &Options{})
		s := newScanner(&Options{}, r)
		s.handleLine(line, 0, len(line))
		s.handleLine(line, 0, len(line))
		if r.Sources.Records+r.Sources.UnreadableLines > 2 {
			t.Fatalf("one line counted more than once: %+v", r.Sources)
		}
	})
}
