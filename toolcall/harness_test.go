package toolcall

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The harness is told from the payload: every Claude Code payload of the
// fixtures is Claude Code's, every Codex payload (Claude Code's shape plus
// turn_id and model; either alone) is Codex's, and a payload that is not a
// JSON object is neither.
func TestDialectFromPayload(t *testing.T) {
	claude, _ := filepath.Glob("../testdata/payloads/*.json")
	codex, _ := filepath.Glob("testdata/harness/codex_*.json")
	if len(claude) < 20 || len(codex) < 10 {
		t.Fatalf("fixtures: %d Claude Code, %d Codex", len(claude), len(codex))
	}
	for _, f := range claude {
		p, _ := ParsePayload(readFixture(t, f))
		if p.Dialect() != DialectClaudeCode || p.Harness != register.HarnessClaudeCode {
			t.Errorf("%s: dialect %d harness %q, want Claude Code", f, p.Dialect(), p.Harness)
		}
	}
	for _, f := range codex {
		p, err := ParsePayload(readFixture(t, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if p.Dialect() != DialectCodex || p.Harness != register.HarnessCodex {
			t.Errorf("%s: dialect %d harness %q, want Codex", f, p.Dialect(), p.Harness)
		}
	}
	for _, bad := range []string{`{"tool_name":`, `["turn_id"]`, "", `"model"`} {
		if p, _ := ParsePayload([]byte(bad)); p.Dialect() != DialectUnknown {
			t.Errorf("%q: dialect %d, want unknown", bad, p.Dialect())
		}
	}
	// A readable object whose fields are wrong still names its harness.
	if p, err := ParsePayload([]byte(`{"turn_id":"t","tool_name":7}`)); err == nil || p.Dialect() != DialectCodex {
		t.Errorf("Codex payload with a bad field: %d, %v", p.Dialect(), err)
	}
	if judge.HarnessCodex != register.HarnessCodex {
		t.Fatal("judge and register name Codex differently")
	}
}

// runPre runs the PreToolUse path on one payload and returns stdout and
// the register's newest entry.
func runPre(t *testing.T, env map[string]string, payload []byte) (string, *register.Entry) {
	t.Helper()
	var out, errb bytes.Buffer
	closeRegister = true
	defer func() { closeRegister = false }()
	Pre(time.Now(), bytes.NewReader(payload), &out, &errb, func(k string) string { return env[k] }, func(int) {})
	reg, err := register.Open(filepath.Join(env["SENTINEL_HOME"], "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	var last *register.Entry
	reg.Each(1, func(e *register.Entry) error { x := *e; last = &x; return nil })
	return out.String(), last
}

type answer struct{ decision, reason string }

// parseAnswer reads stdout as the harness would: "" for silence.
func parseAnswer(t *testing.T, stdout string) answer {
	t.Helper()
	if stdout == "" {
		return answer{}
	}
	var o testOutput
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		t.Fatalf("stdout %q: %v", stdout, err)
	}
	return answer{o.HookSpecificOutput.PermissionDecision, o.HookSpecificOutput.PermissionDecisionReason}
}

func hookEnv(t *testing.T, kv ...string) map[string]string {
	root := t.TempDir()
	m := map[string]string{"HOME": "/home/dev", "SENTINEL_HOME": filepath.Join(root, "state"),
		"XDG_CONFIG_HOME": filepath.Join(root, "config")}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// Codex's contract (docs/codex.md): allow is silence, a deny carries a
// non-empty reason, an ask is a deny whose reason says it is an ask and how
// a person approves it; the register keeps what it was and the harness.
// Claude Code's answers are unchanged.
func TestCodexAnswers(t *testing.T) {
	cases := []struct {
		file, answer, entry, harness string
	}{
		{"testdata/harness/codex_bash_ls.json", "", "allow", "codex"},
		{"testdata/harness/codex_ephemeral.json", "", "allow", "codex"},
		{"testdata/harness/codex_bash_rm_home.json", "deny", "deny", "codex"},
		{"testdata/harness/codex_bash_reset_tui.json", "deny", "ask", "codex"},      // attended: an ask, written as a deny
		{"testdata/harness/codex_bash_reset_exec.json", "deny", "deny", "codex"},    // codex exec: bypassPermissions, unattended
		{"testdata/harness/codex_turn_id_only.json", "deny", "ask", "codex"},        // either key is enough
		{"testdata/harness/codex_model_only.json", "deny", "ask", "codex"},          //
		{"testdata/harness/codex_apply_patch_garbled.json", "deny", "ask", "codex"}, // a patch that does not parse: unjudged
		{"../testdata/payloads/bash_git_reset_hard.json", "ask", "ask", ""},
		{"../testdata/payloads/bash_git_status.json", "", "allow", ""},
		{"../testdata/payloads/bash_rm_rf_home.json", "deny", "deny", ""},
	}
	for _, c := range cases {
		out, e := runPre(t, hookEnv(t), readFixture(t, c.file))
		a := parseAnswer(t, out)
		if a.decision != c.answer {
			t.Errorf("%s: answered %q, want %q (%s)", c.file, a.decision, c.answer, out)
		}
		if a.decision != "" && strings.TrimSpace(a.reason) == "" {
			t.Errorf("%s: a %s without a reason (Codex runs it)", c.file, a.decision)
		}
		if e == nil || e.Decision != c.entry || e.Harness != c.harness {
			t.Errorf("%s: entry %+v, want decision %s harness %q", c.file, e, c.entry, c.harness)
			continue
		}
		isAsk := strings.Contains(a.reason, "This is an ask")
		if want := c.harness == "codex" && c.entry == "ask"; isAsk != want {
			t.Errorf("%s: reason says ask: %v, want %v: %q", c.file, isAsk, want, a.reason)
		}
		if !strings.HasPrefix(a.reason, judge.Marker) && a.decision != "" {
			t.Errorf("%s: reason %q does not start with the marker", c.file, a.reason)
		}
	}
}

// Every failure path answers in a form Codex blocks: a payload that cannot
// be read (harness unknown) is denied with a reason even when a human is
// there, since an ask would run in Codex; the entry says ask, what it was.
func TestCodexFailurePaths(t *testing.T) {
	for name, p := range map[string][]byte{
		"not JSON": []byte(`{"turn_id": "t", "tool_name": "Bash", `),
		"empty":    []byte("  \n"),
		"an array": []byte(`[{"turn_id":"t"}]`),
	} {
		out, e := runPre(t, hookEnv(t), p)
		a := parseAnswer(t, out)
		if a.decision != "deny" || !strings.Contains(a.reason, "SENTINEL-UNJUDGED") || !strings.Contains(a.reason, "This is an ask") {
			t.Errorf("%s: %+v", name, a)
		}
		// Who sent it is not known: the reason names no harness as the caller.
		if strings.Contains(a.reason, "Codex cannot") {
			t.Errorf("%s: an unknown harness's answer speaks of Codex as the caller: %s", name, a.reason)
		}
		if e == nil || e.Kind != register.KindError || e.Decision != "ask" {
			t.Errorf("%s: entry %+v", name, e)
		}
	}
	// A Codex payload with a field of the wrong type: Codex's form, known.
	out, e := runPre(t, hookEnv(t), []byte(`{"turn_id":"t","model":"m","tool_name":"Bash","tool_input":"rm -rf ~","tool_use_id":"call_1"}`))
	if a := parseAnswer(t, out); a.decision != "deny" || e == nil || e.Harness != "codex" || e.Decision != "ask" {
		t.Errorf("bad Codex field: %+v, entry %+v", a, e)
	}
	// The same bad field from Claude Code stays Claude Code's ask.
	out, _ = runPre(t, hookEnv(t), []byte(`{"tool_name":"Bash","tool_input":"rm -rf ~","tool_use_id":"toolu_1"}`))
	if a := parseAnswer(t, out); a.decision != "ask" {
		t.Errorf("bad Claude Code field: %+v", a)
	}
}

// The deadline answers a Codex call's ask as a deny with a reason: an ask
// the judge reached before the register hung is still blocked in Codex.
func TestCodexDeadline(t *testing.T) {
	env := NewEnviron(func(k string) string {
		return map[string]string{"SENTINEL_HOOK_BUDGET": "50ms", "SENTINEL_HOME": t.TempDir()}[k]
	})
	for _, harness := range []string{judge.HarnessCodex, ""} {
		var out, errb bytes.Buffer
		exited := make(chan int, 1)
		d := Arm(time.Now(), env, &out, &errb, func(c int) { exited <- c })
		d.Parsed(judge.Call{SessionID: "s", ToolUseID: "call_dl", Cwd: "/home/u/proj", ToolName: "Bash", Harness: harness,
			PermissionMode: "default", ToolInput: json.RawMessage(`{"command":"git reset --hard"}`)})
		d.Phase("appending to the register")
		d.Known(&Result{Verdict: judge.Ask, Dialect: map[string]Dialect{"codex": DialectCodex, "": DialectClaudeCode}[harness],
			Hit: judge.Hit{RuleID: "GIT-RESET-HARD", Reason: "r", Alternative: "a"}})
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			t.Fatal("no exit within 5 s")
		}
		a := parseAnswer(t, out.String())
		want := "ask"
		if harness == judge.HarnessCodex {
			want = "deny"
		}
		if a.decision != want || a.reason == "" {
			t.Errorf("harness %q: deadline answered %+v, want %s", harness, a, want)
		}
	}
}

// Codex's PostToolUse (tool_response, turn_id, model) is recorded as the
// outcome, with the harness.
func TestCodexPostRecorded(t *testing.T) {
	for _, f := range []string{"testdata/harness/codex_post_bash.json", "testdata/harness/codex_apply_patch_post.json"} {
		env := hookEnv(t)
		var errb bytes.Buffer
		Post(time.Now(), bytes.NewReader(readFixture(t, f)), &errb, func(k string) string { return env[k] }, func(int) {})
		reg, err := register.Open(filepath.Join(env["SENTINEL_HOME"], "register.db"))
		if err != nil {
			t.Fatal(err)
		}
		var got []register.Entry
		reg.Each(1, func(e *register.Entry) error { got = append(got, *e); return nil })
		reg.Close()
		if len(got) != 1 || got[0].Kind != register.KindOutcome || got[0].Label != register.LabelRan ||
			got[0].Harness != register.HarnessCodex || !strings.HasPrefix(got[0].ToolUseID, "call_fake") {
			t.Errorf("%s: %+v (stderr %s)", f, got, errb.String())
		}
	}
}
