package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/register"
)

// demoCalls are the bundled calls: benign ones with dangerous words as
// data, dangerous ones, evasive ones (bash -c, sudo, xargs, pipes into a
// shell, base64, exfiltration), unattended ones and broken payloads.
//
//go:embed demo/calls.json
var demoCallsJSON []byte

// demoCall is one bundled call and what sentinel must answer.
type demoCall struct {
	Kind       string          `json:"kind"`
	Expect     string          `json:"expect"`         // allow, ask, deny
	Rule       string          `json:"rule,omitempty"` // a rule id that must fire
	Unattended bool            `json:"unattended,omitempty"`
	Mode       string          `json:"mode,omitempty"` // permission_mode, default "default"
	Tool       string          `json:"tool,omitempty"`
	Input      json.RawMessage `json:"input,omitempty"`
	Raw        string          `json:"raw,omitempty"` // a malformed payload sent as is
	// Approved: the human answers yes at the ask, so the call runs and
	// PostToolUse records it (what the session's memory counts).
	Approved bool `json:"approved,omitempty"`
}

// demoResult is what the hook answered for one call.
type demoResult struct {
	Decision string
	Reason   string
	Rule     string
	OK       bool
	Problem  string
}

// payload builds the Claude Code payload for a call.
func (c demoCall) payload(i int, home, proj string) []byte {
	if c.Raw != "" {
		return []byte(c.Raw)
	}
	in := strings.NewReplacer("{{HOME}}", home, "{{PROJ}}", proj).Replace(string(c.Input))
	mode := c.Mode
	if mode == "" {
		mode = "default"
	}
	p := map[string]any{
		"session_id":      "demo-0000-4000-8000-000000000001",
		"transcript_path": filepath.Join(home, ".claude", "projects", "demo", "demo.jsonl"),
		"cwd":             proj,
		"permission_mode": mode,
		"hook_event_name": "PreToolUse",
		"tool_name":       c.Tool,
		"tool_input":      json.RawMessage(in),
		"tool_use_id":     fmt.Sprintf("toolu_demo_%02d", i+1),
	}
	b, _ := json.Marshal(p)
	return b
}

// label is a one-line description of the call for the table.
func (c demoCall) label() string {
	if c.Raw != "" {
		return "(malformed JSON payload)"
	}
	in := strings.NewReplacer("{{HOME}}", "~", "{{PROJ}}", "~/proj").Replace(string(c.Input))
	return c.Tool + ": " + shortInput([]byte(in), 52)
}

// findHook locates the sentinel-hook the demo runs: $SENTINEL_HOOK, beside
// this executable, or on PATH.
func findHook() (string, error) {
	if p := os.Getenv("SENTINEL_HOOK"); p != "" {
		return findHookBinary(p)
	}
	return findHookBinary("")
}

// runDemoCall sends one payload through the real hook binary.
func runDemoCall(hookExe string, env []string, c demoCall, payload []byte) demoResult {
	// Claude Code would give up after the hook's timeout; so does the demo.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, hookExe)
	cmd.Env = env
	if c.Unattended {
		cmd.Env = append(cmd.Env, "SENTINEL_UNATTENDED=1")
	}
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	r := demoResult{Decision: "allow"}
	if err := cmd.Run(); err != nil {
		r.Problem = fmt.Sprintf("the hook failed (%v): %s", err, strings.TrimSpace(errb.String()))
		r.Decision = "?"
		return r
	}
	if len(bytes.TrimSpace(out.Bytes())) > 0 {
		var o demoAnswer
		if err := json.Unmarshal(out.Bytes(), &o); err != nil {
			r.Problem = fmt.Sprintf("the hook printed something that is not its JSON: %q", out.String())
			r.Decision = "?"
			return r
		}
		r.Decision = o.HookSpecificOutput.PermissionDecision
		r.Reason = o.HookSpecificOutput.PermissionDecisionReason
		if rest, ok := strings.CutPrefix(r.Reason, "sentinel["); ok {
			r.Rule, _, _ = strings.Cut(rest, "]")
		}
	}
	r.OK = r.Decision == c.Expect
	if !r.OK {
		r.Problem = fmt.Sprintf("expected %s, got %s", c.Expect, r.Decision)
	}
	return r
}

// demoAnswer mirrors the hook's JSON answer.
type demoAnswer struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

func runDemo(w io.Writer, keep bool) error {
	var calls []demoCall
	if err := json.Unmarshal(demoCallsJSON, &calls); err != nil {
		return fail(exitError, "bundled demo calls: %v", err)
	}
	hookExe, err := findHook()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "sentinel-demo-")
	if err != nil {
		return fail(exitError, "%v", err)
	}
	if !keep {
		defer os.RemoveAll(tmp)
	}
	home, proj, state := filepath.Join(tmp, "home"), filepath.Join(tmp, "home", "proj"), filepath.Join(tmp, "state")
	for _, d := range []string{proj, filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fail(exitError, "%v", err)
		}
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains([]string{"SENTINEL_HOME", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "CLAUDE_PROJECT_DIR", "SENTINEL_UNATTENDED", "CLAUDE_CONFIG_DIR"}, k)
	})
	env = append(env, "SENTINEL_HOME="+state, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "xstate"), "CLAUDE_PROJECT_DIR="+proj)

	fmt.Fprintf(w, "sentinel demo: %d tool calls through %s\n", len(calls), hookExe)
	fmt.Fprintf(w, "throwaway register: %s\n\n", filepath.Join(state, "register.db"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tKIND\tCALL\tEXPECT\tGOT\tRULE\tENTRY\t")
	bad := 0
	var reasons []string
	var outcomeSeq int64
	seq := int64(0) // the register entry each call became: one per call, plus the outcome entry of call 1
	for i, c := range calls {
		r := runDemoCall(hookExe, env, c, c.payload(i, home, proj))
		seq++
		if m := demoEntry.FindStringSubmatch(r.Reason); m != nil {
			seq, _ = strconv.ParseInt(m[1], 10, 64)
		}
		if r.OK && c.Rule != "" && r.Rule != c.Rule {
			r.OK, r.Problem = false, fmt.Sprintf("expected rule %s, got %s", c.Rule, dashIfEmpty(r.Rule))
		}
		mark := "ok"
		if !r.OK {
			mark = "MISMATCH: " + r.Problem
			bad++
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t#%d\t%s\n", i+1, c.Kind, c.label(), c.Expect, r.Decision, dashIfEmpty(r.Rule), seq, mark)
		if r.Reason != "" {
			reasons = append(reasons, fmt.Sprintf("%2d  %s", i+1, r.Reason))
		}
		// An allowed call runs; PostToolUse records it (once, to show it),
		// and so for an ask the human approves.
		if (i == 0 && r.Decision == "allow") || (c.Approved && r.Decision == "ask") {
			pl := map[string]any{}
			json.Unmarshal(c.payload(i, home, proj), &pl)
			pl["hook_event_name"], pl["tool_response"] = "PostToolUse", map[string]string{"stdout": "ok"}
			b, _ := json.Marshal(pl)
			post := exec.Command(hookExe, "post")
			post.Env = env
			post.Stdin = strings.NewReader(string(b))
			if err := post.Run(); err != nil {
				fmt.Fprintf(w, "PostToolUse hook failed: %v\n", err)
				bad++
			} else {
				seq++
				if outcomeSeq == 0 {
					outcomeSeq = seq
				}
			}
		}
	}
	tw.Flush()
	if outcomeSeq > 0 {
		fmt.Fprintf(w, "\nRegister entries are not calls: each call is one decision entry, and entry #%d is call 1's outcome entry\n"+
			"(PostToolUse records that the allowed call ran; the secret read the human approved has one too), so the entries\n"+
			"after them are ahead of the calls.\n", outcomeSeq)
	}
	fmt.Fprintln(w, "\nWhat Claude Code is told (ask: the user sees it at the prompt; deny: the model reads it;\n"+
		"\"+N more\" names the other rules that fired, and a session rule the earlier entry it follows):")
	for _, r := range reasons {
		fmt.Fprintln(w, r)
	}

	reg, err := register.OpenReadOnly(filepath.Join(state, "register.db"))
	if err != nil {
		return fail(exitError, "opening the demo register: %v", err)
	}
	vr := reg.Verify()
	reg.Close()
	fmt.Fprintf(w, "\nregister verify: %s\n", vr)
	if keep {
		fmt.Fprintf(w, "kept: SENTINEL_HOME=%s sentinel log\n", state)
	}
	if !vr.OK() {
		bad++
	}
	if bad > 0 {
		fmt.Fprintf(w, "demo: %d mismatches\n", bad)
		return exitCode(exitFailure)
	}
	fmt.Fprintf(w, "demo: every decision as expected, register intact\n")
	return nil
}

// demoEntry finds the entry an answer names.
var demoEntry = regexp.MustCompile(`Register entry #(\d+)\.`)

func newDemoCmd() *cobra.Command {
	var keep bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run realistic tool calls through the real hook and verify the register",
		Long: `demo sends a bundled set of realistic Claude Code tool calls through the real
sentinel-hook binary, exactly as Claude Code would (one process per call,
payload on stdin), into a fresh register in a temporary SENTINEL_HOME. Your
own register and settings are not touched.

The calls are benign (dangerous words only as data: an echo, a commit
message, a grep pattern), dangerous (rm -rf ~, git reset --hard, force
push, reading an SSH key), evasive (bash -c, sudo, xargs, curl | bash,
base64 | sh, exfiltration of ~/.ssh/id_rsa, eval), unattended (where an
ask becomes a deny) and broken (a payload that is not JSON, a command that
does not parse: never allowed).

It prints each decision, what Claude Code is told, and finally verifies
the register's hash chain. sentinel-hook is looked for in $SENTINEL_HOOK,
beside sentinel, then on PATH.

Exit codes: 0 every decision as expected and the register verifies,
1 a mismatch, 4 could not run.`,
		Example: `  make demo
  sentinel demo --keep`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDemo(cmd.OutOrStdout(), keep)
		},
	}
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the temporary register and print how to look at it")
	return cmd
}
