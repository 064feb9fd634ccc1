package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/e2e/e2eutil"
)

// workspace is one run's throwaway world: HOME (owned by nobody) with
// CODEX_HOME in it, the fake provider configured, the hooks installed and
// trusted; a git project with an uncommitted change; a directory outside
// the project that must survive.
type workspace struct {
	e                          *env
	base, home, codex, project string
	out                        string // runner output (root's)
}

// Names inside a workspace the scenarios rely on.
const (
	trackedFile   = "tracked.txt"
	committedText = "committed\n"
	changedText   = "uncommitted change: keep me\n"
	keepDir       = "keep" // under HOME: rm -rf ~/keep is outside the project
	keepFile      = "keep/marker.txt"
	otherToken    = "OTHER-HOOK-DENY" // the other hook blocks it (exit 2, reason on stderr)
	otherLog      = "other-hook.log"
)

// otherHook is another PreToolUse hook beside sentinel's: it blocks any
// call naming otherToken with exit code 2 and its own reason on stderr, and
// logs the payloads it blocked (the evidence that it, not sentinel, did).
const otherHook = `#!/bin/sh
input=$(cat)
case "$input" in
*` + otherToken + `*)
  printf '%s\n' "$input" >> "$HOME/` + otherLog + `"
  echo "blocked by the team's policy hook" >&2
  exit 2
  ;;
esac
exit 0
`

// hookTimeout is the timeout written for every hook (seconds): explicit,
// since Codex's default is 600 s and a hook that times out lets the call run.
const hookTimeout = 30

// WorkRootEnv overrides where workspaces are made.
const WorkRootEnv = "SENTINEL_E2E_DIR"

// workRoot is /home by default, as a real HOME is: not /tmp (Codex refuses
// to create its sandbox helper under a temporary directory, and every
// sandboxed command fails) and not /var/tmp (the sentinel treats both as
// scratch space where deleting is free, so a HOME there is not one).
func workRoot() string {
	if d := os.Getenv(WorkRootEnv); d != "" {
		return d
	}
	return "/home"
}

func newWorkspace(t *testing.T, e *env, name string) *workspace {
	t.Helper()
	base, err := os.MkdirTemp(workRoot(), "sentinel-e2e-codex-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SENTINEL_E2E_KEEP") == "" {
		t.Cleanup(func() { os.RemoveAll(base) })
	} else {
		t.Logf("workspace kept at %s", base)
	}
	w := &workspace{e: e, base: base, home: filepath.Join(base, "home"), out: filepath.Join(base, "out")}
	w.codex = filepath.Join(w.home, ".codex")
	w.project = filepath.Join(w.home, "proj")
	must(t, os.Chmod(base, 0o755))
	for _, d := range []string{w.project, w.out, w.codex, filepath.Join(w.home, keepDir)} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(w.home, keepFile), []byte("do not delete\n"), 0o644))
	e2eutil.GitProject(t, w.project, trackedFile, committedText, changedText)

	// The operator's Codex configuration before sentinel: the fake
	// provider (HTTP only: supports_websockets = false) and another hook.
	must(t, os.WriteFile(filepath.Join(w.codex, "config.toml"), []byte(fmt.Sprintf(`model = "gpt-5.5"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:%d/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
supports_websockets = false
`, fakePort)), 0o644))
	must(t, os.WriteFile(filepath.Join(w.home, "other-hook.sh"), []byte(otherHook), 0o755))
	w.installHooks(t)
	chownR(t, w.home, nobody)
	w.installSentinel(t)
	return w
}

// handler is one command hook of hooks.json.
type handler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

type group struct {
	Matcher string    `json:"matcher"`
	Hooks   []handler `json:"hooks"`
}

type hooksFile struct {
	Hooks map[string][]group `json:"hooks"`
}

// installHooks writes the operator's $CODEX_HOME/hooks.json with another
// PreToolUse hook, trusted (its [hooks.state] hash computed as
// codex-hook-hash.py does, as if the operator had trusted it in Codex's
// TUI); chownR then hands HOME to nobody and install runs
// `sentinel install --codex` there (installSentinel).
func (w *workspace) installHooks(t *testing.T) {
	t.Helper()
	cmd := func(c string) handler { return handler{Type: "command", Command: c, Timeout: hookTimeout} }
	hf := hooksFile{Hooks: map[string][]group{
		"PreToolUse": {{Matcher: "*", Hooks: []handler{cmd(filepath.Join(w.home, "other-hook.sh"))}}},
	}}
	writeJSONFile(t, w.hooksJSON(), hf)
	f, err := os.OpenFile(filepath.Join(w.codex, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	defer f.Close()
	g := hf.Hooks["PreToolUse"][0]
	key := fmt.Sprintf("%s:%s:%d:%d", w.hooksJSON(), eventLabel["PreToolUse"], 0, 0)
	fmt.Fprintf(f, "\n[hooks.state.%s]\ntrusted_hash = %q\n", quoteTOML(key), trustHash("PreToolUse", g.Matcher, g.Hooks[0]))
}

// installSentinel runs `sentinel install --codex` as nobody: sentinel's
// PreToolUse and PostToolUse hooks and their trust entries, confirmed by
// the real Codex (app-server hooks/list); it exits 1 if Codex would skip
// them.
func (w *workspace) installSentinel(t *testing.T) {
	t.Helper()
	c := w.asNobody(w.e.sentinel, "install", "--codex", "--hook-path", w.e.hook, "--codex-bin", w.e.codex)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("sentinel install --codex: %v\n%s", err, out)
	}
}

func (w *workspace) hooksJSON() string { return filepath.Join(w.codex, "hooks.json") }

var eventLabel = map[string]string{"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use"}

// trustHash is Codex 0.169.0's hash of one command handler: sha256 over
// the compact, key-sorted JSON {"event_name","matcher","hooks":[{"type",
// "command","timeout","async"}]} (../shared/tools/codex/codex-hook-hash.py,
// checked against the hashes Codex itself reported and wrote).
func trustHash(event, matcher string, h handler) string {
	ident := map[string]any{"event_name": eventLabel[event], "matcher": matcher,
		"hooks": []any{map[string]any{"type": "command", "command": h.Command, "timeout": max(1, h.Timeout), "async": false}}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // Python's json.dumps escapes no <, >, &
	enc.Encode(ident)
	sum := sha256.Sum256(bytes.TrimRight(b.Bytes(), "\n"))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func quoteTOML(s string) string {
	b, _ := json.Marshal(s) // a TOML basic string: same escapes for a path
	return string(b)
}

// staleTrust changes sentinel's PreToolUse command by one trailing space
// after it was trusted: its hash no longer matches, and Codex skips it.
func (w *workspace) staleTrust(t *testing.T) {
	t.Helper()
	// Decoded generically, so that every other byte of meaning is kept.
	var hf map[string]map[string][]map[string]any
	raw, err := os.ReadFile(w.hooksJSON())
	must(t, err)
	must(t, json.Unmarshal(raw, &hf))
	n := 0
	for _, g := range hf["hooks"]["PreToolUse"] {
		hs, _ := g["hooks"].([]any)
		for _, h := range hs {
			if m, ok := h.(map[string]any); ok {
				if c, _ := m["command"].(string); strings.HasPrefix(c, w.e.hook) {
					m["command"] = c + " "
					n++
				}
			}
		}
	}
	if n != 1 {
		t.Fatalf("hooks.json holds %d sentinel PreToolUse hooks, want 1:\n%s", n, raw)
	}
	writeJSONFile(t, w.hooksJSON(), hf)
	must(t, os.Lchown(w.hooksJSON(), nobody, nobody))
}

// earlierCall runs sentinel's hook once as Codex would, for a harmless
// call of an earlier session: the register then exists before the run, as
// it does where the guard worked until something switched it off.
func (w *workspace) earlierCall(t *testing.T) {
	t.Helper()
	c := w.asNobody(w.e.hook)
	c.Stdin = strings.NewReader(`{"session_id":"earlier","turn_id":"t0","transcript_path":null,"cwd":"` + w.project +
		`","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"call_earlier_00"}`)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("sentinel-hook: %v\n%s", err, out)
	}
}

// asNobody is a command run as the unprivileged user with this HOME.
func (w *workspace) asNobody(prog string, args ...string) *exec.Cmd {
	return e2eutil.AsNobody(w.home, w.project, []string{"CODEX_HOME=" + w.codex}, prog, args...)
}

// sentinelJSON runs a sentinel subcommand as nobody and decodes its JSON
// output. Exit code 1 is allowed where the command uses it for a finding.
func (w *workspace) sentinelJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	e2eutil.RunJSON(t, w.asNobody(w.e.sentinel, args...), v)
}

// launch runs Codex once in a fresh network namespace with the script and
// returns what the runner saw.
func (w *workspace) launch(t *testing.T, sp Spec) *Outcome {
	t.Helper()
	sp.Codex, sp.Home, sp.Project, sp.UID, sp.OutDir = w.e.codex, w.home, w.project, nobody, w.out
	spec := filepath.Join(w.out, "spec.json")
	writeJSONFile(t, spec, sp)
	exe, err := os.Executable()
	must(t, err)
	c := exec.Command("unshare", "-n", "--", exe, "-test.run=^$")
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
	if oc.TimedOut || oc.ExitCode != 0 {
		se, _ := os.ReadFile(filepath.Join(w.out, "stderr.txt"))
		t.Errorf("codex exec: exit %d, timed out %v; stderr:\n%s", oc.ExitCode, oc.TimedOut, tail(string(se), 2000))
	}
	return &oc
}

// sessions is where Codex writes its rollouts.
func (w *workspace) sessions() string { return filepath.Join(w.codex, "sessions") }

// rollouts lists the rollouts Codex wrote.
func (w *workspace) rollouts() []string {
	var files []string
	filepath.WalkDir(w.sessions(), func(p string, d os.DirEntry, err error) error {
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

// short replaces the workspace's HOME by ~ so texts read the same in every run.
func (w *workspace) short(s string) string { return strings.ReplaceAll(s, w.home, "~") }

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

var (
	must          = e2eutil.Must
	writeJSONFile = e2eutil.WriteJSONFile
	chownR        = e2eutil.ChownR
)
