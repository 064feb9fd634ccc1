package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/judge/corpus"
)

// TestEverydayOneSession measures issue 19's growing false flag: the
// corpus's benign calls (every line labelled allow, 985 today) sent through
// the hook's own path (Pre and Post into a real register), each in a
// session of its own, then all in one session after a secret read that was
// asked and declined (no PostToolUse), and after one that was approved (it
// ran). A declined read never ran, so it must add no flag: one session
// after it flags no more than the calls alone. The figures are logged
// (docs/rules.md quotes them).
func TestEverydayOneSession(t *testing.T) {
	if testing.Short() {
		t.Skip("sends every benign corpus call through the hook three times (about a minute)")
	}
	cases, err := corpus.Load(filepath.Join("..", "testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	var benign []corpus.Case
	for _, c := range cases {
		if c.Want == judge.Allow {
			benign = append(benign, c)
		}
	}
	closeRegister = true
	defer func() { closeRegister = false }()

	run := func(name string, secret string) (flags int, flagged []string) {
		state := t.TempDir()
		env := map[string]string{"HOME": corpus.Home, "SENTINEL_HOME": state,
			"XDG_CONFIG_HOME": filepath.Join(t.TempDir(), "config"), "SENTINEL_MEMORY_BUDGET": "1s"}
		getenv := func(k string) string { return env[k] }
		call := func(session, id, tool string, input json.RawMessage, event string) string {
			b, _ := json.Marshal(map[string]any{"session_id": session, "tool_use_id": id, "cwd": corpus.Project,
				"permission_mode": "default", "hook_event_name": event, "tool_name": tool, "tool_input": input})
			var out, errb bytes.Buffer
			if event == "PostToolUse" {
				Post(time.Now(), bytes.NewReader(b), &errb, getenv, func(int) {})
				return ""
			}
			Pre(time.Now(), bytes.NewReader(b), &out, &errb, getenv, func(int) {})
			return out.String()
		}
		read := json.RawMessage(`{"file_path":"` + corpus.Home + `/.ssh/id_rsa"}`)
		for i, c := range benign {
			session := fmt.Sprintf("alone-%d", i)
			if secret != "" {
				session = "one"
				if i == 0 {
					if call(session, "read", "Read", read, "PreToolUse") == "" {
						t.Fatal("the secret read was not asked about")
					}
					if secret == "approved" {
						call(session, "read", "Read", read, "PostToolUse")
					}
				}
			}
			id := fmt.Sprintf("t%d", i)
			if out := call(session, id, c.Tool, c.Input, "PreToolUse"); out != "" {
				flags++
				rule, _, _ := strings.Cut(strings.TrimPrefix(out[strings.Index(out, judge.Marker)+len(judge.Marker):], ""), "]")
				flagged = append(flagged, fmt.Sprintf("%s %s:%d %.80s", rule, filepath.Base(c.File), c.Line, c.Text))
			} else if secret != "" {
				call(session, id, c.Tool, c.Input, "PostToolUse") // it ran
			}
		}
		t.Logf("%s: %d of %d benign calls flagged", name, flags, len(benign))
		return flags, flagged
	}
	alone, aloneFlags := run("each in its own session", "")
	declined, declinedFlags := run("one session after a declined secret read", "declined")
	approved, _ := run("one session after an approved secret read", "approved")
	t.Logf("flagged alone: %v", aloneFlags)
	t.Logf("flagged in one session after the declined read: %v", declinedFlags)
	for _, f := range declinedFlags {
		if strings.HasPrefix(f, judge.RuleSessionSecretSend+" ") {
			t.Errorf("a declined secret read left a trace: %s", f)
		}
	}
	if declined > alone {
		t.Logf("note: %d flags in one session, %d alone (above)", declined, alone)
	}
	if approved <= declined {
		t.Errorf("an approved secret read flags no more (%d) than a declined one (%d): memory is not working", approved, declined)
	}
}
