package main

// doctor's truth about the hooks it finds: PostToolUseFailure is installed
// beside PostToolUse, and the installed PreToolUse command, run the way
// Claude Code runs it, really denies a dangerous call.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// checkPostFailure flags an install without PostToolUseFailure: Claude Code
// fires it instead of PostToolUse when a call ran and failed, so without it
// "ran and failed" shows as "not run", and a denied call that ran anyway and
// failed shows as held, not breached. With PostToolUse installed and this
// one missing (an install older than the fix) the outcomes mislead: fail.
// With neither, outcomes are simply not measured: warn, as for PostToolUse.
func checkPostFailure(rep *doctorReport, files []loadedSettings) {
	has := func(h ourHook) bool {
		for _, f := range files {
			for _, c := range commandHooks(f.obj, h.Event) {
				if h.recognises(c.Command, "") && matchesEveryTool(c.Group.Matcher) {
					return true
				}
			}
		}
		return false
	}
	missing := doctorWarn
	if has(postHook) && !has(postFailureHook) {
		rep.add("hook "+postFailureHook.Event, doctorFail,
			"sentinel-hook post is a PostToolUse hook but not a PostToolUseFailure hook: a call that ran and failed looks not run, and a denied call that ran anyway and failed looks held, not breached",
			"sentinel install --user (or --project): it adds the missing hook")
		return
	}
	checkHook(rep, files, postFailureHook, missing)
}

// hookProbeTimeout bounds one run of an installed hook command.
const hookProbeTimeout = 10 * time.Second

// hookProbePayload is a call every sentinel denies (rm -rf of the home
// directory), in the shape Claude Code sends.
func hookProbePayload(cwd, id string) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id": "sentinel-doctor-" + id, "transcript_path": "", "cwd": cwd, "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf ~/"},
		"tool_use_id": probeToolUseID("Claude Code", id),
	})
	return b
}

// probeToolUseID is the probe call's id in each harness's style.
func probeToolUseID(harness, id string) string {
	if harness == "Codex" {
		return "call_sentinel_doctor_" + id
	}
	return "toolu_sentinel_doctor_" + id
}

// checkHookRuns runs every sentinel PreToolUse command found the way Claude
// Code does (/bin/sh -c COMMAND, the payload on stdin, a bounded time) with
// a throwaway state directory, so the operator's register is not touched.
// It passes only when the answer is a JSON deny carrying the sentinel's
// marker and the throwaway register holds that deny for the probe's
// tool_use_id: a look-alike script named sentinel-hook does not pass.
func checkHookRuns(rep *doctorReport, files []loadedSettings) {
	seen := map[string]bool{}
	for _, f := range files {
		for _, c := range commandHooks(f.obj, preHook.Event) {
			if !preHook.recognises(c.Command, "") || seen[c.Command] || !matchesEveryTool(c.Group.Matcher) {
				continue
			}
			seen[c.Command] = true
			where := fmt.Sprintf("%s settings %s", f.Scope, f.Path)
			timeout := hookProbeTimeout
			if s, err := strconv.ParseFloat(c.Timeout, 64); err == nil && s > 0 && time.Duration(s*float64(time.Second)) < timeout {
				timeout = time.Duration(s * float64(time.Second))
			}
			if err := probeHook(c.Command, timeout); err != nil {
				rep.add("hook answers", doctorFail, fmt.Sprintf("%s: %s, run as Claude Code runs it, %v: a dangerous call would not be stopped", where, c.Command, err),
					"point the hook at the real sentinel-hook (make build; sentinel install --"+installScope(f.Scope)+")")
				continue
			}
			rep.add("hook answers", doctorOK, fmt.Sprintf("%s: %s denies a known dangerous call (rm -rf ~/), run through /bin/sh -c, and registers it in a throwaway state directory (yours is untouched)", where, c.Command), "")
		}
	}
}

// probeHook runs one hook command on the probe payload the way Claude
// Code does: only a JSON deny with the sentinel's marker passes.
func probeHook(command string, timeout time.Duration) error {
	env := []string{"CLAUDECODE=1"}
	return runHookProbe(command, timeout, hookProbePayload, env, "Claude Code", func(r hookProbeRun) error {
		if r.exit == 2 {
			return fmt.Errorf("blocked by exit 2 instead of a JSON deny (stderr %q)", firstLine(r.stderr))
		}
		if r.exit != 0 {
			return fmt.Errorf("failed (exit status %d; stderr %q): Claude Code lets the call through", r.exit, firstLine(r.stderr))
		}
		var out struct {
			HSO struct {
				Event    string `json:"hookEventName"`
				Decision string `json:"permissionDecision"`
				Reason   string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(bytes.TrimSpace([]byte(r.stdout)), &out); err != nil {
			return fmt.Errorf("answered %q, not one JSON object", firstLine(r.stdout))
		}
		if out.HSO.Decision != "deny" {
			return fmt.Errorf("answered %q instead of deny", out.HSO.Decision)
		}
		if !strings.HasPrefix(out.HSO.Reason, "sentinel[") {
			return errors.New("denied without the sentinel's marker: not this project's hook")
		}
		return probeRegistered(filepath.Join(r.state, "register.db"), r.toolUseID)
	})
}

// hookProbeRun is what one run of a hook command gave.
type hookProbeRun struct {
	stdout, stderr string
	exit           int
	state          string // the throwaway SENTINEL_HOME
	toolUseID      string
}

// runHookProbe runs command through /bin/sh -c with payload(project, id)
// on stdin, a throwaway state directory and project, env added, at most
// timeout; check judges the run while the state directory still exists.
func runHookProbe(command string, timeout time.Duration, payload func(cwd, id string) []byte, env []string, harness string, check func(hookProbeRun) error) error {
	tmp, err := os.MkdirTemp("", "sentinel-doctor-")
	if err != nil {
		return fmt.Errorf("could not be run (no temporary directory: %v)", err)
	}
	defer os.RemoveAll(tmp)
	state, proj := filepath.Join(tmp, "state"), filepath.Join(tmp, "project")
	if err := os.Mkdir(state, 0o700); err != nil {
		return fmt.Errorf("could not be run: %v", err)
	}
	if err := os.Mkdir(proj, 0o700); err != nil {
		return fmt.Errorf("could not be run: %v", err)
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	id := hex.EncodeToString(rnd[:])
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir = proj
	cmd.Stdin = bytes.NewReader(payload(proj, id))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "SENTINEL_HOME="+state, "CLAUDE_PROJECT_DIR="+proj)
	cmd.Env = append(cmd.Env, env...)
	// Its own process group, killed whole at the deadline.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	r := hookProbeRun{stdout: stdout.String(), stderr: stderr.String(), state: state, toolUseID: probeToolUseID(harness, id)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("gave no answer within %s (%s lets the call through when a hook times out)", timeout, harness)
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	case err != nil:
		return fmt.Errorf("failed (%v; stderr %q): %s lets the call through", err, firstLine(stderr.String()), harness)
	}
	return check(r)
}

// probeRegistered checks that the hook recorded its deny: a look-alike that
// prints the right JSON does not keep a hash-chained register.
func probeRegistered(path, toolUseID string) error {
	reg, err := register.OpenReadOnly(path)
	if err != nil {
		return fmt.Errorf("denied, but left no register entry in its state directory (%v): not the sentinel's hook, or it ignores SENTINEL_HOME", err)
	}
	defer reg.Close()
	es, err := reg.FindByToolUseID(toolUseID)
	if err != nil {
		return fmt.Errorf("denied, but its register cannot be read: %v", err)
	}
	for _, e := range es {
		if e.Decision == "deny" {
			if vr := reg.Verify(); !vr.OK() {
				return fmt.Errorf("denied, but its register does not verify: %s", vr.String())
			}
			return nil
		}
	}
	return errors.New("denied, but its register holds no deny for the probe")
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
