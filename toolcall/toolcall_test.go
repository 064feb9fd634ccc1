package toolcall

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// output mirrors what the hook writes, for decoding in tests.
type testOutput = output

func testEnv(t *testing.T, kv ...string) *Environ {
	t.Helper()
	root := t.TempDir()
	m := map[string]string{"HOME": filepath.Join(root, "home"), "SENTINEL_HOME": filepath.Join(root, "state"),
		"XDG_CONFIG_HOME": filepath.Join(root, "config")}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return NewEnviron(func(k string) string { return m[k] })
}

func bashPayload(cmd, mode string) []byte {
	b, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": "/home/dev/proj", "permission_mode": mode,
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]string{"command": cmd},
		"tool_use_id": "toolu_1"})
	return b
}

func decide(t *testing.T, env *Environ, payload []byte) *Result {
	t.Helper()
	p, err := ParsePayload(payload)
	return Decide(p, err, env, nil, nil)
}

func TestParsePayloadExactKeys(t *testing.T) {
	good := `{"tool_name":"Bash","tool_input":{"command":"ls"},"Extra":1}`
	if p, err := ParsePayload([]byte(good)); err != nil || p.ToolName != "Bash" {
		t.Fatalf("good payload: %+v, %v", p, err)
	}
	for name, bad := range map[string]string{
		"case variant":        `{"tool_name":"Bash","tool_input":{"command":"ls"},"TOOL_INPUT":{"command":"rm -rf ~"}}`,
		"case variant only":   `{"tool_name":"Bash","Tool_Input":{"command":"rm -rf ~"}}`,
		"duplicate":           `{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf ~"}}`,
		"duplicate in input":  `{"tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}`,
		"case in input":       `{"tool_name":"Bash","tool_input":{"command":"ls","COMMAND":"rm -rf ~"}}`,
		"two values":          `{"tool_name":"Bash","tool_input":{"command":"ls"}} {}`,
		"not UTF-8":           "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf \xff\"}}",
		"tool_input a string": `{"tool_name":"Bash","tool_input":"rm -rf ~"}`,
		"not an object":       `["tool_name"]`,
	} {
		if _, err := ParsePayload([]byte(bad)); err == nil {
			t.Errorf("%s: accepted %s", name, bad)
		}
	}
	// Each bad payload is an unjudged call: ask attended, deny unattended.
	env := testEnv(t)
	r := decide(t, env, []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"TOOL_INPUT":{"command":"x"}}`))
	if r.Verdict != judge.Ask || r.Entry.Kind != register.KindError || !strings.Contains(r.Entry.Reason, "differ only in case") {
		t.Errorf("case variant: %s %s %q", r.Verdict, r.Entry.Kind, r.Entry.Reason)
	}
}

// The input the judge sees must be what would run; otherwise: unjudged.
func TestUnfaithfulInput(t *testing.T) {
	att, unatt := testEnv(t), testEnv(t, "SENTINEL_UNATTENDED", "yes")
	cases := map[string]string{
		"git reset --hard\x00origin/main": "NUL",
		"rm -rf build\r":                  "carriage return",
		"echo hi\r\nrm -rf x":             "carriage return",
		"ls \uFFFD":                       "U+FFFD",
	}
	for cmd, why := range cases {
		for _, env := range []*Environ{att, unatt} {
			r := decide(t, env, bashPayload(cmd, "default"))
			want := ErrorVerdict(env.Attendance.Unattended)
			if r.Verdict < want || r.Entry.Kind != register.KindError || !strings.Contains(r.Entry.Reason, why) ||
				!strings.Contains(r.Entry.Reason, "not what would be judged") {
				t.Errorf("%q (unattended %v): %s %s %q", cmd, env.Attendance.Unattended, r.Verdict, r.Entry.Kind, r.Entry.Reason)
			}
		}
	}
	// Benign twins: the same characters where nothing runs differently.
	for _, cmd := range []string{"git reset --soft HEAD~1", "printf 'a\\tb\\n'", "echo café"} {
		if r := decide(t, att, bashPayload(cmd, "default")); r.Verdict != judge.Allow {
			t.Errorf("%q: %s %q", cmd, r.Verdict, r.Entry.Reason)
		}
	}
	// A path with NUL (the kernel would cut it there).
	b := []byte(`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/proj/a\u0000/../../.bashrc","content":"x"}}`)
	if r := decide(t, att, b); r.Verdict == judge.Allow {
		t.Errorf("Write with a NUL in file_path allowed")
	}
}

func TestAttendance(t *testing.T) {
	for v, want := range map[string]bool{"1": true, "true": true, "YES": true, "On": true, " on ": true,
		"0": false, "false": false, "No": false, "OFF": false} {
		a := attendance(func(k string) string {
			if k == "SENTINEL_UNATTENDED" {
				return v
			}
			return ""
		})
		if a.Unattended != want || len(a.Problems) != 0 {
			t.Errorf("SENTINEL_UNATTENDED=%q: %+v", v, a)
		}
	}
	for _, v := range []string{"2", "maybe", "y"} {
		a := attendance(func(k string) string {
			if k == "SENTINEL_UNATTENDED" {
				return v
			}
			return ""
		})
		if !a.Unattended || len(a.Problems) != 1 || !strings.Contains(a.Problems[0], "not one of") {
			t.Errorf("SENTINEL_UNATTENDED=%q: %+v, want unattended with a problem", v, a)
		}
	}
	for env, want := range map[[2]string]bool{
		{"CLAUDE_CODE_SESSION_ATTENDED", "0"}: true,
		{"CLAUDE_CODE_SESSION_ATTENDED", "1"}: false,
		{"CLAUDE_CODE_ENTRYPOINT", "sdk-cli"}: true,
		{"CLAUDE_CODE_ENTRYPOINT", "sdk-ts"}:  true,
		{"CLAUDE_CODE_ENTRYPOINT", "cli"}:     false,
		{"CLAUDE_CODE_SESSION_ATTENDED", "?"}: true,
	} {
		a := attendance(func(k string) string {
			if k == env[0] {
				return env[1]
			}
			return ""
		})
		if a.Unattended != want {
			t.Errorf("%s=%s: %+v", env[0], env[1], a)
		}
	}
	// SENTINEL_UNATTENDED=0 cannot make a headless run attended.
	e := testEnv(t, "SENTINEL_UNATTENDED", "0", "CLAUDE_CODE_SESSION_ATTENDED", "0", "CLAUDE_CODE_ENTRYPOINT", "sdk-cli")
	r := decide(t, e, bashPayload("git stash drop", "default"))
	if r.Verdict != judge.Deny || r.Entry.Attended || !strings.Contains(r.Entry.Reason, "CLAUDE_CODE_SESSION_ATTENDED=0") ||
		!strings.Contains(r.Reason(), "unattended (CLAUDE_CODE_SESSION_ATTENDED=0") {
		t.Errorf("headless ask: %s attended=%v %q / %q", r.Verdict, r.Entry.Attended, r.Entry.Reason, r.Reason())
	}
	// Interactive: the same call is an ask, recorded attended.
	r = decide(t, testEnv(t, "CLAUDE_CODE_SESSION_ATTENDED", "1", "CLAUDE_CODE_ENTRYPOINT", "cli"), bashPayload("git stash drop", "default"))
	if r.Verdict != judge.Ask || !r.Entry.Attended {
		t.Errorf("interactive ask: %s attended=%v", r.Verdict, r.Entry.Attended)
	}
}

func TestReasonCap(t *testing.T) {
	long := strings.Repeat("é😀", 6000) // 2 + 2 units each... 18,000 units
	s := capReason(long, " Register entry #7.")
	if units(s) > MaxReason || !strings.HasSuffix(s, "… Register entry #7.") {
		t.Errorf("capped reason: %d units, ends %q", units(s), s[len(s)-40:])
	}
	if s := capReason("short", " tail."); s != "short tail." {
		t.Errorf("short reason changed: %q", s)
	}
}

// blockingReader never returns: a payload that never ends.
type blockingReader struct{ c chan struct{} }

func (b blockingReader) Read([]byte) (int, error) { <-b.c; return 0, io.EOF }

// The deadline answers exactly once, fail-closed, within the budget, and
// journals the call; the normal path, when it finally runs, writes nothing.
func TestDeadline(t *testing.T) {
	env := map[string]string{"SENTINEL_HOOK_BUDGET": "200ms", "SENTINEL_HOME": t.TempDir()}
	var out, errb bytes.Buffer
	exited := make(chan int, 1)
	stdin := blockingReader{make(chan struct{})}
	start := time.Now()
	done := make(chan struct{})
	go func() {
		Pre(start, stdin, &out, &errb, func(k string) string { return env[k] }, func(c int) { exited <- c })
		close(done)
	}()

	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("no exit within 5 s")
	}
	took := time.Since(start)
	if took > 200*time.Millisecond+ExtraMoment+200*time.Millisecond {
		t.Errorf("the deadline took %s", took)
	}
	close(stdin.c) // the normal path goes on: it must not write a second answer
	<-done
	var o testOutput
	dec := json.NewDecoder(&out)
	if err := dec.Decode(&o); err != nil || dec.More() {
		t.Fatalf("stdout %q: %v", out.String(), err)
	}
	if o.HookSpecificOutput.PermissionDecision != "deny" || !strings.Contains(o.HookSpecificOutput.PermissionDecisionReason, "budget") {
		t.Errorf("deadline answer %+v (attendance unknown: want deny)", o)
	}
}

// A deadline that fires after the payload was decoded but before judging
// finished journals which call it was: session, tool_use_id, tool, cwd and
// the canonical input (issue 21: 8 of 8 such records had none).
func TestDeadlineDuringJudging(t *testing.T) {
	dir := t.TempDir()
	env := NewEnviron(func(k string) string {
		return map[string]string{"SENTINEL_HOOK_BUDGET": "50ms", "SENTINEL_HOME": dir}[k]
	})
	var out, errb bytes.Buffer
	exited := make(chan int, 1)
	d := Arm(time.Now(), env, &out, &errb, func(c int) { exited <- c })
	d.Parsed(judge.Call{SessionID: "sess-1", ToolUseID: "toolu_judging", Cwd: "/home/u/proj", ToolName: "Bash",
		PermissionMode: "default", ToolInput: json.RawMessage(`{"command":"git reset --hard","description":"x"}`)})
	d.Phase("judging") // and judging never returns
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("no exit within 5 s")
	}
	b, err := os.ReadFile(filepath.Join(dir, register.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	var line struct{ Entry register.Entry }
	if err := json.Unmarshal(bytes.TrimSpace(b), &line); err != nil {
		t.Fatalf("journal %q: %v", b, err)
	}
	e := line.Entry
	if e.SessionID != "sess-1" || e.ToolUseID != "toolu_judging" || e.Tool != "Bash" || e.Cwd != "/home/u/proj" ||
		string(e.Input) != `{"command":"git reset --hard"}` || e.Kind != register.KindError || e.Decision != "deny" {
		t.Errorf("deadline record %+v (input %s)", e, e.Input)
	}
	if !strings.Contains(e.Reason, "it was judging") {
		t.Errorf("reason %q", e.Reason)
	}
}
