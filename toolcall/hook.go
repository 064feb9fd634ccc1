package toolcall

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/session"
)

// recordShare is the part of the budget the normal path may spend before
// it must answer; the rest is a margin for writing the answer.
const recordShare = 0.9

// Pre handles one PreToolUse call, from start (the process's first
// instant) to the answer on stdout. It never panics out and always answers
// unless the verdict is a plain allow; the deadline answers when it cannot.
func Pre(start time.Time, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, exit func(int)) {
	env := NewEnviron(getenv)
	d := Arm(start, env, stdout, stderr, exit)
	for _, p := range env.Problems {
		fmt.Fprintln(stderr, "sentinel-hook:", p)
	}
	var r *Result
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "sentinel-hook: internal error: %v\n", v)
			afterPanic(r, env, d, stdout, stderr, v)
		}
	}()
	data, err := ReadPayload(stdin)
	var p Payload
	if err == nil {
		p, err = ParsePayload(data)
	}
	if err == nil && p.IsPost() {
		fmt.Fprintf(stderr, "sentinel-hook: a %s payload without the \"post\" argument; recorded as an outcome (run: sentinel install)\n", p.HookEventName)
		d.Silent()
		post(p, nil, env, d, stderr)
		return
	}
	var cfg *judge.Config
	var cfgErr error
	if err == nil {
		d.Parsed(p.Call)
		d.Phase("reading the configuration")
		cfg, cfgErr = env.LoadConfig(p.Cwd)
	}
	if err == nil && env.StateErr == nil {
		env.Memory = session.New(env.StateDir, p.SessionID, d.At, env.MemoryBudget)
	}
	d.Phase("judging")
	r = Decide(p, err, env, cfg, cfgErr)
	d.Known(r)
	d.Phase("appending to the register")
	r.Record(env, start.Add(time.Duration(float64(env.Budget)*recordShare)), stderr)
	for _, f := range r.Failures {
		fmt.Fprintln(stderr, "sentinel-hook:", f)
	}
	if m, ok := env.Memory.(*session.Memory); ok && closeRegister {
		m.Close() // many calls in one process (FuzzPre); the hook just exits
	}
	if !d.Claim() {
		d.Wait()
		return
	}
	body, tail := r.reasonParts()
	writeAnswer(stdout, r.Dialect, r.Verdict, body, tail)
}

// afterPanic answers and records a call whose handling panicked; it must
// not panic itself, and its record is bounded like the deadline's.
func afterPanic(r *Result, env *Environ, d *Deadline, stdout, stderr io.Writer, v any) {
	if !d.Claim() {
		d.Wait()
		return
	}
	defer func() { recover() }()
	if r == nil {
		// Nothing judged yet: attended only if that was known already.
		d.mu.Lock()
		r = &Result{Unattended: d.unatt || !d.known, Dialect: d.dialect, Entry: register.Entry{Version: version.Version, Rules: []string{}}}
		if d.pending != nil {
			r.Entry = *d.pending
		}
		d.mu.Unlock()
	}
	r.fail("internal error: %v", v)
	r.applyError()
	e := r.Entry
	e.Decision, e.Attended, e.Reason = r.Verdict.String(), !r.Unattended, r.entryReason(nil)
	e.Seq, e.Hash, e.PrevHash = 0, "", ""
	done := make(chan error, 1)
	go func() { done <- d.journal(&e) }()
	select {
	case err := <-done:
		r.Seq, r.Journaled = 0, err == nil
	case <-time.After(ExtraMoment):
	}
	if !r.Journaled {
		fmt.Fprintln(stderr, "sentinel-hook: this decision could not be registered")
	}
	body, tail := r.reasonParts()
	writeAnswer(stdout, r.Dialect, r.Verdict, body, tail)
}

// Post handles one PostToolUse or PostToolUseFailure payload (Claude
// Code's or Codex's, whose PostToolUse carries tool_response the same
// way): it records that the call ran (and whether it failed). It never
// blocks the harness:
// it prints nothing on stdout, and ends at the deadline whatever hangs.
func Post(start time.Time, stdin io.Reader, stderr io.Writer, getenv func(string) string, exit func(int)) {
	env := NewEnviron(getenv)
	d := Arm(start, env, io.Discard, stderr, exit)
	d.Silent()
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "sentinel-hook post: internal error: %v\n", v)
		}
	}()
	data, err := ReadPayload(stdin)
	var p Payload
	if err == nil {
		p, err = ParsePayload(data)
	}
	post(p, err, env, d, stderr)
}

// post records the outcome entry; what cannot be appended is journaled.
func post(p Payload, err error, env *Environ, d *Deadline, stderr io.Writer) {
	e := register.Entry{Kind: register.KindOutcome, Label: register.LabelRan, Rules: []string{}, Version: version.Version,
		SessionID: p.SessionID, ToolUseID: p.ToolUseID, Cwd: p.Cwd, Tool: p.ToolName, PermissionMode: p.PermissionMode,
		Harness: p.Harness}
	if p.HookEventName == "PostToolUseFailure" {
		e.Label = register.LabelRanFailed
		if p.IsInterrupt {
			e.Reason = "interrupted"
		}
	}
	if err == nil && p.ToolUseID == "" {
		err = fmt.Errorf("outcome payload has no tool_use_id")
	}
	if err == nil && e.Label == register.LabelRan {
		e.Facts = secretPrints(p, env)
	}
	if err != nil {
		fmt.Fprintln(stderr, "sentinel-hook post:", err)
		e.Kind, e.Label, e.Reason = register.KindError, "", "outcome not recorded: "+err.Error()
		e.Rules = []string{judge.RuleSentinelUnjudged}
	}
	d.Phase("recording the outcome")
	if env.StateErr != nil {
		fmt.Fprintln(stderr, "sentinel-hook post: this outcome could not be registered:", env.StateErr)
	} else if aerr := appendEntry(env.StateDir, &e, d.At, nil); aerr != nil {
		fmt.Fprintln(stderr, "sentinel-hook post: register:", aerr)
		if jerr := register.JournalWhy(env.StateDir, &e, aerr); jerr != nil {
			fmt.Fprintln(stderr, "sentinel-hook post: journal:", jerr)
			fmt.Fprintln(stderr, "sentinel-hook post: this outcome could not be registered")
		}
	}
	if !d.Claim() {
		d.Wait()
	}
}

// secretPrints is the Facts of the outcome entry of a call that read a
// secret: the prints of what it returned (tool_response), so that a later
// send of the secret's own text is a deny (judge/secretprint.go). Whether
// the call read a secret is judged again from its tool_input, under the
// shipped defaults and without the disk: a pure function of the payload.
func secretPrints(p Payload, env *Environ) string {
	if len(p.ToolResponse) == 0 || p.SessionID == "" {
		return ""
	}
	en := env.JudgeEnv(p.Cwd, nil, false)
	en.NoFiles, en.Memory = true, nil
	d := judge.Decide(p.Call, en)
	if d.Facts == nil || !d.Facts.Secret {
		return ""
	}
	return session.EncodePrints(judge.SecretPrintsOf(responseText(p.ToolResponse)))
}

// responseText is every string in a tool_response, one per line.
func responseText(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return b.String()
}
