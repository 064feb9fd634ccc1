package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/e2e/fakeapi"
)

// UnguardedSaveEnv, when set, is where TestUnguardedSession keeps what the
// real Claude Code wrote (testdata/claudecode/unguarded/<version>): the
// transcripts, the register (sentinel log --json) and the ids of the calls
// that ran without the hook.
const UnguardedSaveEnv = "SENTINEL_E2E_SAVE_UNGUARDED"

// TestUnguardedSession: the hook cannot stop a settings file that switches
// it off (here the project's settings.local.json with disableAllHooks, as an
// agent could write it), but every call of the session that ran without it
// is seen afterwards: outcomes, the census and doctor count and name them
// (issue 21). The session before the switch, guarded, shows none.
func TestUnguardedSession(t *testing.T) {
	e := need(t)
	w := newWorkspace(t, e, "unguarded")
	headless := func(prefix string, cmds ...string) Spec {
		sc := fakeapi.Script{IDPrefix: prefix, FinalText: "Done."}
		for _, c := range cmds {
			sc.Steps = append(sc.Steps, fakeapi.Step{Tool: "Bash", Input: stepInput("command", c, "description", "run it")})
		}
		return Spec{Script: sc, TimeoutSec: 150, Args: []string{"-p", "Do the scripted task.", "--output-format", "stream-json",
			"--verbose", "--permission-mode", "bypassPermissions", "--dangerously-skip-permissions"}}
	}
	guarded := w.launch(t, headless("guarded", "ls", "git status --short"))
	if len(guarded.IDs) != 2 {
		t.Fatalf("the guarded session made %d calls, want 2", len(guarded.IDs))
	}
	// Nothing unguarded yet.
	var before outcomesJSON
	w.sentinelJSON(t, &before, "outcomes", "--json")
	if before.Summary.Unguarded == nil || *before.Summary.Unguarded != 0 {
		t.Fatalf("before the switch: unguarded %v, want 0", before.Summary.Unguarded)
	}

	// The switch, as the agent's own writer would leave it.
	local := filepath.Join(w.project, ".claude", "settings.local.json")
	must(t, os.MkdirAll(filepath.Dir(local), 0o755))
	writeJSONFile(t, local, map[string]any{"disableAllHooks": true})
	chownR(t, filepath.Join(w.project, ".claude"), nobody)
	off := w.launch(t, headless("unguarded", "ls", "touch ran-unguarded", "rm -rf ~/keep"))
	if len(off.IDs) != 3 {
		t.Fatalf("the session without the hook made %d calls, want 3", len(off.IDs))
	}
	if !w.exists("proj/ran-unguarded") || w.exists(keepFile) {
		t.Fatalf("without the hook the calls should have run: ran-unguarded %v, ~/keep kept %v", w.exists("proj/ran-unguarded"), w.exists(keepFile))
	}
	unguardedIDs := map[string]bool{}
	for _, id := range off.IDs {
		unguardedIDs[id] = true
	}

	// outcomes: the three calls, in one session.
	var after outcomesJSON
	w.sentinelJSON(t, &after, "outcomes", "--json")
	if after.Summary.Unguarded == nil || *after.Summary.Unguarded != 3 {
		t.Errorf("outcomes: unguarded %v, want 3", after.Summary.Unguarded)
	}
	if len(after.Sessions) != 1 || after.Sessions[0].Calls != 3 || after.Sessions[0].Session == "" {
		t.Errorf("outcomes: unguarded sessions %+v, want one session with 3 calls", after.Sessions)
	}

	// The census: a count and its sessions.
	var census struct {
		Unguarded struct {
			Count    *int64 `json:"count"`
			Sessions *int64 `json:"sessions"`
		} `json:"unguarded"`
	}
	w.sentinelJSON(t, &census, "census", "--out", "-")
	if c := census.Unguarded; c.Count == nil || *c.Count != 3 || c.Sessions == nil || *c.Sessions != 1 {
		t.Errorf("census: unguarded %+v, want 3 calls in 1 session", c)
	}

	// doctor: fails, naming the session and when.
	var doc struct {
		Checks []struct{ Name, Status, Message string } `json:"checks"`
	}
	w.sentinelJSON(t, &doc, "doctor", "--json")
	found := false
	for _, c := range doc.Checks {
		if c.Name == "unguarded calls" {
			found = true
			if c.Status != "fail" || !strings.Contains(c.Message, "3 tool call(s)") || len(after.Sessions) == 0 ||
				!strings.Contains(c.Message, "session "+after.Sessions[0].Session) {
				t.Errorf("doctor: %s: %s", c.Status, c.Message)
			}
		}
	}
	if !found {
		t.Errorf("doctor has no unguarded calls check: %+v", doc.Checks)
	}
	saveUnguarded(t, w, unguardedIDs)
}

// outcomesJSON is the part of `sentinel outcomes --json` read here.
type outcomesJSON struct {
	Summary struct {
		Unguarded *int64 `json:"unguarded"`
	} `json:"summary"`
	Sessions []struct {
		Session string `json:"session"`
		Calls   int    `json:"calls"`
	} `json:"unguarded_sessions"`
}

func saveUnguarded(t *testing.T, w *workspace, ids map[string]bool) {
	dir := os.Getenv(UnguardedSaveEnv)
	if dir == "" {
		return
	}
	must(t, os.RemoveAll(dir))
	must(t, os.MkdirAll(dir, 0o755))
	var reg json.RawMessage
	w.sentinelJSON(t, &reg, "log", "--json", "-n", "0")
	must(t, os.WriteFile(filepath.Join(dir, "register.json"), []byte(w.short(string(reg))), 0o644))
	var list []string
	for id := range ids {
		list = append(list, id)
	}
	writeJSONFile(t, filepath.Join(dir, "unguarded.json"), map[string]any{"claude_code": w.e.version, "unguarded_tool_use_ids": list,
		"note": "two headless sessions: the first with the hook, the second with disableAllHooks in the project's settings.local.json"})
	w.copyTranscripts(t, dir, false)
}
