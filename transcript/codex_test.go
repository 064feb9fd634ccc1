package transcript

import (
	"path/filepath"
	"strings"
	"testing"
)

// codexRun reads one of the real Codex 0.169.0 rollouts in
// testdata/codex/0.169.0 (see its README).
func codexRun(t *testing.T, name string) (calls map[string]string, results map[string]Verdict, src *Sources) {
	t.Helper()
	calls, results = map[string]string{}, map[string]Verdict{}
	src, err := Read([]string{filepath.Join("..", "testdata", "codex", "0.169.0", name, "sessions")}, Options{}, Handler{
		Call: func(_ string, c *Call) {
			if c.Session == "" {
				t.Errorf("call %s: no session", c.ID)
			}
			calls[c.ID] = c.Name
		},
		Result: func(_ string, r *Result) { results[r.ID] = r.Verdict },
	})
	if err != nil {
		t.Fatal(err)
	}
	return calls, results, src
}

// stepOf is the script step of a fake call id (call_fake<tag>_<NN>).
func stepOf(id string) string { return id[strings.LastIndexByte(id, '_')+1:] }

// TestCodexRollouts: every call of a real rollout is read with Codex's
// tool name, its call_id as the id; a hook's block is a hook stop, with the
// marker only when the reason starts with it; a call that ran and failed,
// or ran because the hook was skipped, is no stop.
func TestCodexRollouts(t *testing.T) {
	names := map[string]string{"00": "exec_command", "01": "exec_command", "02": "exec_command", "03": "exec_command", "04": "apply_patch"}
	for _, tc := range []struct {
		run   string
		stops map[string]Verdict // by step
	}{
		// The hook printed sentinel's marker for step 02 (it is not the
		// sentinel: only a register can say) and another reason for 03.
		{"other-hooks", map[string]Verdict{
			"02": {Stopper: StopHook, Marker: true, Unanswered: true, Codex: true},
			"03": {Stopper: StopHook, Unanswered: true, Codex: true},
		}},
		// The same script with the hook untrusted: Codex skipped it, all ran.
		{"untrusted", nil},
	} {
		t.Run(tc.run, func(t *testing.T) {
			calls, results, src := codexRun(t, tc.run)
			if src.Files != 1 || src.CodexFiles != 1 || src.UnreadableLines != 0 || src.OrphanResults != 0 {
				t.Errorf("sources %+v", src)
			}
			if len(calls) != 5 || len(results) != 5 {
				t.Fatalf("calls %v results %v", calls, results)
			}
			for id, name := range calls {
				if names[stepOf(id)] != name {
					t.Errorf("%s: tool %q, want %q", id, name, names[stepOf(id)])
				}
				want := tc.stops[stepOf(id)]
				want.Codex = true
				if got := results[id]; got != want {
					t.Errorf("%s: verdict %+v, want %+v", id, got, want)
				}
			}
		})
	}
}

// TestCodexLines: the shapes a rollout's output may take, and lines that
// only look like one.
func TestCodexLines(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "2026", "12", "02", "rollout-2026-12-02T00-00-00-s1.jsonl")
	lines := []string{
		`{"timestamp":"2026-12-02T00:00:00Z","type":"session_meta","payload":{"id":"s1"}}`,
		`{"timestamp":"2026-12-02T00:00:01Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"c1"}}`,
		`{"timestamp":"2026-12-02T00:00:02Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Command blocked by PreToolUse hook: sentinel[X]: no. Command: x"}}`,
		`{"timestamp":"2026-12-02T00:00:03Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"c2"}}`,
		// The command itself printed the text later in its output: no stop.
		`{"timestamp":"2026-12-02T00:00:04Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"Chunk ID: 1\nOutput:\nCommand blocked by PreToolUse hook: sentinel[X]"}}`,
		// The user's message quoting a call shape is no call.
		`{"timestamp":"2026-12-02T00:00:05Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"\"function_call\" call_id"}]}}`,
		`not json "function_call"`,
	}
	write(t, p, strings.Join(lines, "\n")+"\n")
	// A Claude Code transcript beside it is still read as Claude Code's.
	write(t, filepath.Join(dir, "claude.jsonl"), call("toolu_cc"))
	got := map[string]Verdict{}
	sessions := map[string]string{}
	src, err := Read([]string{dir}, Options{}, Handler{
		Call:   func(_ string, c *Call) { sessions[c.ID] = c.Session },
		Result: func(_ string, r *Result) { got[r.ID] = r.Verdict },
	})
	if err != nil {
		t.Fatal(err)
	}
	if src.Files != 2 || src.CodexFiles != 1 || src.UnreadableLines != 1 || src.Records != 6+1 {
		t.Errorf("sources %+v", src)
	}
	if len(sessions) != 3 || sessions["c1"] != "s1" || sessions["c2"] != "s1" {
		t.Errorf("calls %v", sessions)
	}
	if v := got["c1"]; v.Stopper != StopHook || !v.Marker {
		t.Errorf("c1: %+v", v)
	}
	if v := got["c2"]; v.Stopper != "" {
		t.Errorf("c2: %+v", v)
	}
}
