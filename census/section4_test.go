package census

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// TestSection4Runs: transcripts in the shape Claude Code 2.1.328 writes
// (../shared/docs/claude-code.md §4) beside a real register, the way the
// runs of issue 10 met them: the sentinel's JSON denies (marker after the
// hook-error prefix), its asks rejected headless, an imitator printing the
// marker, the human's Yes and No at the prompt, Claude Code's own no-prompt
// rejections. Every stopper must equal the truth.
func TestSection4Runs(t *testing.T) {
	dir := t.TempDir()
	reg, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	var lines []string
	n := 0
	type call struct {
		session, kind, text, entry string
		pd                         map[string]any
		regDecision                string // the sentinel's register entry, "" none
		esc                        bool
	}
	add := func(c call) {
		n++
		id := "toolu_run" + strings.Repeat("0", 3) + string(rune('a'+n))
		ts := at.Add(time.Duration(n) * time.Hour).Format(time.RFC3339)
		use, _ := json.Marshal(map[string]any{"type": "assistant", "sessionId": c.session, "timestamp": ts, "message": map[string]any{"content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": "git reset --hard"}}}}})
		res := map[string]any{"type": "user", "sessionId": c.session, "timestamp": ts, "entrypoint": c.entry, "message": map[string]any{"content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": c.text, "is_error": c.kind != ""}}}}
		if c.kind != "" {
			res["toolDenialKind"] = c.kind
		}
		if c.pd != nil {
			res["permissionDecision"] = c.pd
		}
		if c.esc {
			res["toolUseResult"] = "User rejected tool use"
		}
		b, _ := json.Marshal(res)
		lines = append(lines, string(use), string(b))
		if c.regDecision != "" {
			e := register.Entry{Kind: register.KindDecision, SessionID: c.session, ToolUseID: id, Tool: "Bash", Decision: c.regDecision,
				Rules: []string{"GIT-RESET-HARD"}, Attended: c.entry == "cli", Time: at.Add(time.Duration(n) * time.Hour), Input: []byte(`{}`)}
			if err := reg.Append(&e); err != nil {
				t.Fatal(err)
			}
		}
	}
	hookDeny := map[string]any{"decision": "reject", "source": "hook", "reasonType": "hook", "reasonCode": "hook:PreToolUse"}
	hookAskNobody := map[string]any{"decision": "reject", "source": "config", "reasonCode": "hook:PreToolUse"}
	yes := map[string]any{"decision": "accept", "source": "user_temporary", "grantScope": "once", "reasonCode": "hook:PreToolUse"}
	for range 3 { // the sentinel's denies, headless and interactive
		add(call{"s1", "permission-rule", "PreToolUse:Bash hook error: sentinel[GIT-RESET-HARD]: discards work. Register entry #1.", "sdk-cli", hookDeny, "deny", false})
	}
	add(call{"s2", "permission-rule", "PreToolUse:Bash hook error: sentinel[GIT-RESET-HARD]: x", "cli", hookDeny, "deny", false})
	for range 2 { // the sentinel's asks, rejected in -p with nobody to answer
		add(call{"s1", "user-rejected", "sentinel[GIT-RESET-HARD]: discards work. Register entry #2.", "sdk-cli", hookAskNobody, "ask", false})
	}
	// Another hook printing the sentinel's marker: no register entry.
	add(call{"s1", "permission-rule", "PreToolUse:Bash hook error: sentinel[FAKE]: imitation", "sdk-cli", hookDeny, "", false})
	// Another hook of its own.
	add(call{"s1", "permission-rule", "PreToolUse:Bash hook error: no deploys on Friday", "sdk-cli", hookDeny, "", false})
	// The human: Yes to the sentinel's ask, No to another one.
	add(call{"s2", "", "HEAD is now at 1234567", "cli", yes, "ask", false})
	add(call{"s2", "user-rejected", "The user doesn't want to proceed with this tool use. The tool use was rejected", "cli", nil, "ask", true})
	// Claude Code's own no-prompt rejections, a mode, a rule.
	add(call{"s1", "user-rejected", "needs approval", "sdk-cli", map[string]any{"decision": "reject", "source": "config", "reasonCode": "bashMiss:no-rule-match"}, "", false})
	add(call{"s1", "user-rejected", "needs approval", "sdk-cli", map[string]any{"decision": "reject", "source": "config", "reasonCode": "unknown"}, "", false})
	add(call{"s1", "permission-rule", "Permission to use Bash has been denied because Claude Code is running in don't ask mode.", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonType": "mode", "reasonCode": "mode:dontAsk"}, "", false})
	add(call{"s1", "permission-rule", "Permission to use Bash with command git reset --hard has been denied.", "sdk-cli",
		map[string]any{"decision": "reject", "source": "config", "reasonType": "subcommandResults", "reasonCode": "rule:userSettings"}, "", false})
	// A register ask whose session differs from the transcript's: not confirmed.
	add(call{"s3", "permission-rule", "PreToolUse:Bash hook error: sentinel[GIT-RESET-HARD]: x", "cli", hookDeny, "", false})
	e := register.Entry{Kind: register.KindDecision, SessionID: "other-session", ToolUseID: "toolu_run000" + string(rune('a'+n)), Tool: "Bash", Decision: "deny", Time: at, Input: []byte(`{}`)}
	if err := reg.Append(&e); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	r, _ := run(t, Options{TranscriptDirs: []string{dir}, Register: outcome.Entries(reg)})
	want := map[string]int64{"total": 14, "sentinel": 6, "unconfirmed_marker": 2, "other_hooks": 1, "user": 1,
		"no_human_mode": 3, "permission_rules": 1, "classifier": 0}
	if got := stopCounts(r); !equalCounts(got, want) {
		t.Errorf("stops:\n got %v\nwant %v", got, want)
	}
	if v(r.Stops.Sentinel.UnansweredAsks) != 2 || v(r.HumanAtPrompt.Approved) != 1 || v(r.HumanAtPrompt.Declined) != 1 {
		t.Errorf("unanswered %d, human %+v", v(r.Stops.Sentinel.UnansweredAsks), r.HumanAtPrompt)
	}
	a := r.Outcomes.Asks
	// 4 asks: 2 nobody could answer, 1 yes, 1 no. No PostToolUse entry, but
	// the harness's record shows the yes.
	if v(a.Total) != 4 || v(a.Unanswered) != 2 || v(a.Approved) != 1 || v(a.Declined) != 1 || v(a.Presented) != 2 || v(a.Unknown) != 0 {
		t.Errorf("asks %+v", a)
	}
	if r.Outcomes.Denies.Held != nil {
		t.Error("no outcome entries: held must be null")
	}
	// The series: one day per hour-stepped call from 09:00 on Nov 28.
	if r.Series == nil || r.Series.Bucket != "day" || len(r.Series.Points) != 2 {
		t.Fatalf("series %+v", r.Series)
	}
	var sum int64
	for _, p := range r.Series.Points {
		sum += v(p.Sentinel)
	}
	if sum != 6 {
		t.Errorf("series sentinel sum %d", sum)
	}
}

func equalCounts(a, b map[string]int64) bool {
	for k, x := range b {
		if a[k] != x {
			return false
		}
	}
	return true
}
