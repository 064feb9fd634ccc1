package claudecode

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/e2e/e2eutil"
	"github.com/sentinel-guard/sentinel/e2e/fakeapi"
)

// workspace is one run's throwaway world: HOME (owned by nobody) with the
// hooks installed, a git project with an uncommitted change, a marker
// directory outside the project.
type workspace struct {
	e                   *env
	base, home, project string
	out                 string // runner output (root's)
	bin                 string // where the sentinel binaries the hooks run are (sandbox_test.go)
	managed             string // managed settings shown as /etc/claude-code ("" none)
}

// Names inside a workspace the scenarios rely on.
const (
	trackedFile   = "tracked.txt"
	committedText = "committed\n"
	changedText   = "uncommitted change: keep me\n"
	keepDir       = "keep" // under HOME: rm -rf ~/keep is outside the project
	keepFile      = "keep/marker.txt"
	forbidden     = "forbidden-marker" // the operator's deny rule covers touching it
	imitated      = "imitated-marker"  // the other hook denies writing it
	imitateToken  = "IMITATE-SENTINEL"
	otherToken    = "OTHER-HOOK-DENY" // the other hook denies it by exit code 2, no marker
	otherMarker   = "other-marker"
	imitatorLog   = "imitator.log"
	envLog        = "hook-env.log"
)

// imitator is another PreToolUse hook that denies any Bash call naming
// imitateToken with a reason that starts like sentinel's marker (JSON), and
// any naming otherToken with exit code 2 and its own reason on stderr. Its
// log is the evidence that it (not sentinel) stopped the call.
//
// It also records, for every Bash call, what Claude Code tells a hook about
// who is there: the payload's permission_mode and the environment's
// CLAUDE_CODE_SESSION_ATTENDED and CLAUDE_CODE_ENTRYPOINT (envLog).
const imitator = `#!/bin/sh
input=$(cat)
mode=$(printf '%s' "$input" | grep -o '"permission_mode":"[^"]*"' | head -n 1)
printf '%s attended=%s entrypoint=%s\n' "$mode" "${CLAUDE_CODE_SESSION_ATTENDED-unset}" "${CLAUDE_CODE_ENTRYPOINT-unset}" >> "$HOME/` + envLog + `"
case "$input" in
*` + imitateToken + `*)
  printf '%s\n' "$input" >> "$HOME/` + imitatorLog + `"
  printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"sentinel[RM-OUTSIDE-PROJECT]: not sentinel at all, another hook printing its marker"}}'
  ;;
*` + otherToken + `*)
  printf '%s\n' "$input" >> "$HOME/` + imitatorLog + `"
  echo "blocked by the team's policy hook" >&2
  exit 2
  ;;
esac
exit 0
`

func newWorkspace(t *testing.T, e *env, name string) *workspace {
	t.Helper()
	base, err := os.MkdirTemp(workRoot(), "sentinel-e2e-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SENTINEL_E2E_KEEP") == "" {
		t.Cleanup(func() { os.RemoveAll(base) })
	} else {
		t.Logf("workspace kept at %s", base)
	}
	w := &workspace{e: e, base: base, home: filepath.Join(base, "home"), out: filepath.Join(base, "out")}
	w.project = filepath.Join(w.home, "proj")
	must(t, os.Chmod(base, 0o755))
	must(t, os.MkdirAll(w.project, 0o755))
	must(t, os.MkdirAll(w.out, 0o755))
	must(t, os.MkdirAll(filepath.Join(w.home, keepDir), 0o755))
	must(t, os.WriteFile(filepath.Join(w.home, keepFile), []byte("do not delete\n"), 0o644))

	e2eutil.GitProject(t, w.project, trackedFile, committedText, changedText)

	// First-run dialogs pre-answered, so an interactive run goes straight in.
	cj := map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "bypassPermissionsModeAccepted": true,
		"customApiKeyResponses": map[string]any{"approved": []string{"sk-ant-test"}, "rejected": []string{}},
		"projects": map[string]any{w.project: map[string]any{
			"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true, "allowedTools": []string{}}},
	}
	writeJSONFile(t, filepath.Join(w.home, ".claude.json"), cj)
	// The operator's settings before sentinel is installed: a deny rule and
	// another hook. install must keep both.
	must(t, os.WriteFile(filepath.Join(w.home, "imitator.sh"), []byte(imitator), 0o755))
	must(t, os.MkdirAll(filepath.Join(w.home, ".claude"), 0o755))
	settings := map[string]any{
		"permissions": map[string]any{"deny": []string{"Bash(touch " + forbidden + ")"}},
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{
			"matcher": "Bash",
			"hooks":   []any{map[string]any{"type": "command", "command": filepath.Join(w.home, "imitator.sh")}},
		}}},
	}
	writeJSONFile(t, filepath.Join(w.home, ".claude", "settings.json"), settings)
	chownR(t, w.home, nobody)
	if out, err := w.asNobody(e.sentinel, "install", "--hook-path", e.hook).CombinedOutput(); err != nil {
		t.Fatalf("sentinel install: %v\n%s", err, out)
	}
	return w
}

// WorkRootEnv overrides where workspaces are made.
const WorkRootEnv = "SENTINEL_E2E_DIR"

// workRoot is where workspaces go: /home by default, as a real HOME is.
// Not under /tmp: sentinel lets an agent delete freely in temp
// directories, so a HOME there would not be treated as one.
func workRoot() string {
	if d := os.Getenv(WorkRootEnv); d != "" {
		return d
	}
	return "/home"
}

// asNobody is a command run as the unprivileged user with this HOME.
func (w *workspace) asNobody(prog string, args ...string) *exec.Cmd {
	return e2eutil.AsNobody(w.home, w.project, nil, prog, args...)
}

// sentinelJSON runs a sentinel subcommand as nobody and decodes its JSON
// output. Exit code 1 is allowed where the command uses it for a finding.
func (w *workspace) sentinelJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	e2eutil.RunJSON(t, w.asNobody(w.e.sentinel, args...), v)
}

// launch runs Claude Code once in a fresh network namespace with the script
// and returns what the runner saw.
func (w *workspace) launch(t *testing.T, sp Spec) *Outcome {
	t.Helper()
	sp.Claude, sp.Home, sp.Project, sp.UID, sp.GID, sp.OutDir = w.e.claude, w.home, w.project, nobody, nobody, w.out
	if w.managed != "" {
		sp.Isolate, sp.Managed = true, w.managed
	}
	spec := filepath.Join(w.out, "spec.json")
	writeJSONFile(t, spec, sp)
	exe, err := os.Executable()
	must(t, err)
	ns := []string{"-n"}
	if sp.Isolate {
		ns = append(ns, "-m", "-p", "-f", "--mount-proc")
	}
	c := exec.Command("unshare", append(ns, "--", exe, "-test.run=^$")...)
	c.Env = append(os.Environ(), RunnerEnv+"="+spec)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("runner: %v\n%s", err, out)
	}
	var oc Outcome
	raw, err := os.ReadFile(filepath.Join(w.out, "outcome.json"))
	must(t, err)
	must(t, json.Unmarshal(raw, &oc))
	if oc.Error != "" {
		t.Fatalf("runner: %s", oc.Error)
	}
	if oc.TimedOut {
		t.Errorf("Claude Code did not finish in time; screen/stderr in %s", w.out)
	}
	return &oc
}

// transcripts lists the session transcripts Claude Code wrote.
func (w *workspace) transcripts(t *testing.T) []string {
	t.Helper()
	var files []string
	root := filepath.Join(w.home, ".claude", "projects")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	return files
}

func (w *workspace) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(w.home, rel))
	return err == nil
}

func (w *workspace) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(w.home, rel))
	return string(b)
}

var (
	must          = e2eutil.Must
	writeJSONFile = e2eutil.WriteJSONFile
	chownR        = e2eutil.ChownR
)

func stepInput(kv ...string) json.RawMessage {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return b
}

var _ = fmt.Sprintf
var _ = fakeapi.New
