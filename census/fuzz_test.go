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
		o := &Options{}
		r := newReport(fixedNow(), o)
		s := newScanner(o, r)
		fs := &fileScan{path: "fuzz.jsonl", opts: o}
		fs.handleLine(line, 0, len(line))
		fs.handleLine(line, 0, len(line))
		if fs.src.Records+fs.src.UnreadableLines > 2 {
			t.Fatalf("one line counted more than once: %+v", fs.src)
		}
		for i := range fs.events {
			if ev := &fs.events[i]; ev.result {
				s.toolResult(ev)
			} else {
				s.toolUse(ev)
			}
		}
	})
}
