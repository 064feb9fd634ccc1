package transcript

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// section4 are the result records Claude Code 2.1.328 wrote in the runs of
// ../shared/docs/claude-code.md §4, one per row of its table, with what
// each must be attributed to. The texts are the observed forms.
var section4 = []struct {
	name, kind, text, entry string
	pd                      map[string]any
	esc                     bool
	want                    Verdict
}{
	{"a hook's JSON deny (the sentinel's marker after the hook-error prefix)", "permission-rule",
		"PreToolUse:Bash hook error: sentinel[GIT-RESET-HARD]: discards uncommitted work. Register entry #3.", "sdk-cli",
		map[string]any{"decision": "reject", "source": "hook", "reasonType": "hook", "reasonCode": "hook:PreToolUse"}, false,
		Verdict{Stopper: StopHook, Marker: true, Structured: true}},
	{"another hook's JSON deny", "permission-rule", "PreToolUse:Bash hook error: policy says no", "cli",
		map[string]any{"decision": "reject", "source": "hook", "reasonType": "hook", "reasonCode": "hook:PreToolUse"}, false,
		Verdict{Stopper: StopHook, Structured: true}},
	{"a hook's exit-2 deny with the marker on stderr", "permission-rule",
		"PreToolUse:Bash hook error: [/usr/local/bin/sentinel-hook]: sentinel[RM-HOME]: deletes your home", "cli",
		map[string]any{"decision": "reject", "source": "hook", "reasonType": "hook", "reasonCode": "hook:PreToolUse"}, false,
		Verdict{Stopper: StopHook, Marker: true, Structured: true}},
	{"a hook's ask, nobody to answer (-p)", "user-rejected", "sentinel[GIT-RESET-HARD]: discards uncommitted work. Register entry #4.", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonCode": "hook:PreToolUse"}, false,
		Verdict{Stopper: StopHook, Marker: true, Unanswered: true, Structured: true}},
	{"a hook's ask, the human said Yes", "", "HEAD is now at 1234567", "cli",
		map[string]any{"decision": "accept", "source": "user_temporary", "grantScope": "once", "reasonCode": "hook:PreToolUse"}, false,
		Verdict{Answer: AnswerApproved, HookAsk: true, Structured: true}},
	{"the human said No at a prompt", "user-rejected",
		"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).", "cli",
		nil, true, Verdict{Stopper: StopUser, Answer: AnswerDeclined}},
	{"an operator deny rule", "permission-rule", "Permission to use Bash with command npm install x has been denied.", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonType": "subcommandResults", "reasonCode": "rule:userSettings", "ruleSource": "userSettings"}, false,
		Verdict{Stopper: StopRules, Structured: true}},
	{"an operator deny rule in -p (source user_reject, seen in e2e/claudecode)", "permission-rule",
		"Permission to use Bash with command touch forbidden-marker has been denied.", "sdk-cli",
		map[string]any{"decision": "reject", "source": "user_reject", "reasonType": "rule", "ruleSource": "userSettings", "reasonCode": "rule:userSettings"}, false,
		Verdict{Stopper: StopRules, Structured: true}},
	{"dontAsk mode", "permission-rule", "Permission to use Bash has been denied because Claude Code is running in don't ask mode.", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonType": "mode", "reasonCode": "mode:dontAsk"}, false,
		Verdict{Stopper: StopNoHuman, Structured: true}},
	{"plan mode", "user-rejected", "plan mode text", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonCode": "mode:plan"}, false,
		Verdict{Stopper: StopNoHuman, Structured: true}},
	{"needs approval, no prompt in -p (unknown)", "user-rejected", "This command requires approval", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonCode": "unknown"}, false,
		Verdict{Stopper: StopNoHuman, Structured: true}},
	{"needs approval, no prompt in -p (bashMiss)", "user-rejected", "This command requires approval", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonCode": "bashMiss:no-rule-match"}, false,
		Verdict{Stopper: StopNoHuman, Structured: true}},
	{"needs approval, no prompt in -p (safetyCheck)", "user-rejected", "Claude requested permissions to edit ~/.bashrc", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonCode": "safetyCheck"}, false,
		Verdict{Stopper: StopNoHuman, Structured: true}},
	{"auto-mode classifier unavailable", "automode-unavailable", "Bash is temporarily unavailable, so auto mode cannot determine the safety of Bash right now.", "cli",
		map[string]any{"decision": "reject", "source": "config", "reasonType": "classifier", "reasonCode": "classifier:auto-mode:unavailable"}, false,
		Verdict{Stopper: StopClassifier, Kind: KindUnavailable, Structured: true}},
	{"allowed by mode", "", "ok", "sdk-cli", map[string]any{"decision": "accept", "source": "config", "reasonType": "mode"}, false,
		Verdict{Structured: true}},
	{"allowed by rules", "", "ok", "cli", map[string]any{"decision": "accept", "source": "config", "reasonType": "subcommandResults"}, false,
		Verdict{Structured: true}},
	// Versions between toolDenialKind and permissionDecision.
	{"user-rejected in a headless session without permissionDecision", "user-rejected", "anything", "sdk-cli", nil, false,
		Verdict{Stopper: StopNoHuman}},
	{"user-rejected with a hook's verbatim reason (an unanswered ask)", "user-rejected", "sentinel[X]: y", "", nil, false,
		Verdict{Stopper: StopHook, Marker: true, Unanswered: true}},
	{"the marker not at the start, older version", "permission-rule", "PreToolUse:Bash hook error: sentinel[X]: y", "", nil, false,
		Verdict{Stopper: StopHook, Marker: true}},
	{"a hook that imitates the marker deep in its text", "permission-rule", "PreToolUse:Bash hook error: blocked; see sentinel[X]", "", nil, false,
		Verdict{Stopper: StopHook}},
}

func TestSection4(t *testing.T) {
	dir := t.TempDir()
	var lines string
	for i, c := range section4 {
		id := "toolu_s4_" + string(rune('a'+i))
		use := map[string]any{"type": "assistant", "sessionId": "s", "message": map[string]any{"content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": "x"}}}}}
		res := map[string]any{"type": "user", "sessionId": "s", "message": map[string]any{"content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": c.text, "is_error": c.kind != ""}}}}
		if c.kind != "" {
			res["toolDenialKind"] = c.kind
		}
		if c.pd != nil {
			res["permissionDecision"] = c.pd
		}
		if c.entry != "" {
			res["entrypoint"] = c.entry
		}
		if c.esc {
			res["toolUseResult"] = TxtUserEsc
		}
		for _, m := range []map[string]any{use, res} {
			b, _ := json.Marshal(m)
			lines += string(b) + "\n"
		}
	}
	write(t, filepath.Join(dir, "s.jsonl"), lines)
	got := map[string]Verdict{}
	src, err := Read([]string{dir}, Options{}, Handler{Result: func(_ string, r *Result) {
		got[r.ID] = r.Verdict
		if r.Session != "s" {
			t.Errorf("%s: session %q", r.ID, r.Session)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range section4 {
		id := "toolu_s4_" + string(rune('a'+i))
		if got[id] != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got[id], c.want)
		}
	}
	if src.StructuredResults != 15 {
		t.Errorf("structured results %d", src.StructuredResults)
	}
}

// FuzzLine feeds arbitrary transcript lines to the decoder: it must never
// panic, every line is a record or unreadable, and a verdict names a known
// stopper.
func FuzzLine(f *testing.F) {
	f.Add([]byte(`{"type":"user","toolDenialKind":"permission-rule","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"sentinel[X]: y","is_error":true}]}}`))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`))
	f.Add([]byte(`{"type":"user","permissionDecision":{"decision":"reject","source":"hook"},"message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"PreToolUse:Bash hook error: sentinel[","is_error":true}]}}`))
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"Permission for this action has been denied. Reason: [Data"}]}]}}`))
	f.Add([]byte(`{"type":"user","message":{"content":"tool_result"}}`))
	known := map[string]bool{"": true, StopClassifier: true, StopRules: true, StopNoHuman: true, StopHook: true, StopUser: true}
	f.Fuzz(func(t *testing.T, line []byte) {
		fs := &fileScan{path: "fuzz.jsonl", o: &Options{}}
		fs.handleLine(line, 0, len(line))
		fs.handleLine(line, 0, len(line))
		if fs.src.Records+fs.src.UnreadableLines > 2 {
			t.Fatalf("one line counted more than once: %+v", fs.src)
		}
		r := &reader{calls: NewSeen(), h: Handler{Result: func(_ string, res *Result) {
			if !known[res.Stopper] {
				t.Fatalf("stopper %q", res.Stopper)
			}
		}}}
		if err := r.apply(fs); err != nil {
			t.Fatal(err)
		}
	})
}
