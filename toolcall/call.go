package toolcall

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sentinel-guard/sentinel/gate"
	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/session"
)

// Result is one call's outcome as it moves from judging to recording to
// answering.
type Result struct {
	Verdict judge.Verdict
	Hit     judge.Hit // explains the verdict; zero for a plain allow
	More    []string  // the other rules' ids
	Note    string    // e.g. why an ask became a deny
	// MemoryNote says why the session's memory could not be used ("" when
	// it was, or was not needed); the entry's reason keeps it.
	MemoryNote string
	// Dialect is the harness's contract the answer is written in.
	Dialect Dialect
	// Unattended is the mode the call was judged in, Why the signal.
	Unattended bool
	Why        string
	// Failures are what went wrong; any makes the entry an error entry
	// and the verdict at least the error verdict.
	Failures []string
	Entry    register.Entry
	// Decision is the judge's decision after the gate (what check and
	// explain print; Verdict may be stricter after a failure).
	Decision judge.Decision
	// Seq is the register entry (0 when not in the register); Journaled
	// says it is in the fallback journal instead.
	Seq       int64
	Journaled bool
	// Gate is the register entry the must-keep gate's cache says it is
	// (gate.Hold); the append checks it, so that a deleted or edited
	// gate.json cannot release a held rule. nil: not checked.
	Gate *register.Expect
}

func (r *Result) fail(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

// ErrorVerdict is the answer for a call that cannot be judged or
// registered: a human must look when one is there, else it is blocked.
func ErrorVerdict(unattended bool) judge.Verdict {
	if unattended {
		return judge.Deny
	}
	return judge.Ask
}

// Decide judges a PreToolUse payload: a pure function of the payload (and
// the error that decoding it gave), the environment, and the configuration
// (and the error that loading it gave). It assembles the register entry;
// recording it is Record's job.
func Decide(p Payload, perr error, env *Environ, cfg *judge.Config, cfgErr error) *Result {
	c := p.Call
	r := &Result{Unattended: env.Attendance.Unattended, Why: env.Attendance.Why, Dialect: p.Dialect()}
	if unattendedMode(c.PermissionMode) && !r.Unattended {
		r.Unattended, r.Why = true, "permission_mode "+c.PermissionMode
	}
	r.Entry = register.Entry{
		Kind: register.KindDecision, SessionID: c.SessionID, ToolUseID: c.ToolUseID, Cwd: c.Cwd,
		Tool: c.ToolName, PermissionMode: c.PermissionMode, Version: version.Version, Rules: []string{},
		Harness: c.Harness,
	}
	if perr != nil {
		r.fail("%v", perr)
	} else {
		r.judge(c, p.unfaithful, env, cfg, cfgErr)
	}
	r.finish(env)
	return r
}

// Redecide judges a recorded call again on the hook's own path (Decide):
// the entry's call in the mode it was recorded in, with mem as its
// session's memory (session.Replay rebuilds it from the register), no
// script read from today's disk and no gate (replay is what the gate
// consumes). The project directory is the entry's cwd.
func Redecide(e *register.Entry, env *Environ, cfg *judge.Config, mem judge.Memory) *Result {
	en := *env
	en.Memory, en.NoFiles, en.NoGate, en.ProjectDir, en.Problems = mem, true, true, e.Cwd, nil
	en.Attendance = Attendance{Unattended: !e.Attended}
	p := Payload{Call: judge.Call{SessionID: e.SessionID, ToolUseID: e.ToolUseID, Cwd: e.Cwd, PermissionMode: e.PermissionMode,
		HookEventName: "PreToolUse", ToolName: e.Tool, ToolInput: e.Input, Harness: e.Harness}, dialect: DialectClaudeCode}
	if e.Harness == register.HarnessCodex {
		p.dialect = DialectCodex
	}
	return Decide(p, nil, &en, cfg, nil)
}

// judge runs the catalog over a well-formed call.
func (r *Result) judge(c judge.Call, unfaithful func() string, env *Environ, cfg *judge.Config, cfgErr error) {
	if cfgErr != nil {
		// Judge with the shipped defaults, but the broken or refused
		// configuration makes the call an error decision: a human should know.
		r.fail("configuration: %v", cfgErr)
		cfg = nil
	}
	if why := unfaithful(); why != "" {
		r.fail("%s", why)
	}
	r.Entry.CatalogVersion = judge.CatalogVersion
	r.Entry.CatalogHash = judge.CatalogHashFor(cfg)
	d := judge.Decide(c, env.JudgeEnv(c.Cwd, cfg, r.Unattended))
	r.Entry.Facts = session.Encode(c.SessionID, d.Facts)
	if m, ok := env.Memory.(interface{ Note() string }); ok {
		r.MemoryNote = m.Note()
	}
	// The must-keep gate (gate/): rules a failed or unchecked configuration
	// lost are held at their shipped decision.
	if !env.NoGate {
		own := d.RuleIDs()
		d, r.Gate = gate.Hold(d, env.StateDir, r.Entry.CatalogHash, func() judge.Decision {
			return judge.Decide(c, env.JudgeEnv(c.Cwd, nil, r.Unattended))
		})
		if len(d.Hits) > len(own) {
			d.Used = heldBy(d, own)
		}
	}
	r.Decision = d
	r.Verdict = d.Verdict
	if d.Unattended && !r.Unattended {
		r.Unattended, r.Why = true, "permission_mode "+c.PermissionMode
	}
	r.Entry.Rules = d.RuleIDs()
	if r.Entry.Rules == nil {
		r.Entry.Rules = []string{}
	}
	if len(d.Hits) > 0 {
		// Hits come strictest first: the strictest rule speaks.
		r.Hit = d.Hits[0]
		for _, h := range d.Hits[1:] {
			id := h.RuleID
			if h.After > 0 {
				id += " after entry #" + strconv.FormatInt(h.After, 10)
			}
			r.More = append(r.More, id)
		}
	}
	if d.Note != "" {
		r.Note = d.Note
		if r.Why != "" {
			r.Note = "unattended (" + r.Why + "): ask became deny"
		}
	}
	r.Entry.Reason = r.Hit.Reason
	if d.Error != "" {
		r.fail("could not judge the call: %s", d.Error)
	}
	canon, err := judge.Canonical(c.ToolName, c.ToolInput)
	if err != nil {
		r.fail("canonical input: %v", err)
		return
	}
	r.Entry.Input = canon
}

// heldBy notes in d.Used the hits the gate added (those not in own).
func heldBy(d judge.Decision, own []string) *judge.Used {
	u := &judge.Used{}
	if d.Used != nil {
		*u = *d.Used
	}
	u.Gate = nil
	for _, h := range d.Hits {
		if !slices.Contains(own, h.RuleID) {
			u.Gate = append(u.Gate, h.RuleID+": "+h.Reason)
		}
	}
	return u
}

// Final is the decision as the hook answers it: the judge's (after the
// gate), with the error verdict and its hit when something failed. check
// and explain print it.
func (r *Result) Final() judge.Decision {
	d := r.Decision
	d.Hits = append([]judge.Hit(nil), d.Hits...)
	d.Unattended = r.Unattended
	if len(r.Failures) > 0 {
		if r.Hit.RuleID == judge.RuleSentinelUnjudged && (len(d.Hits) == 0 || d.Hits[0].RuleID != judge.RuleSentinelUnjudged) {
			h := r.Hit
			h.Verdict, h.Decision = r.Verdict, r.Verdict.String()
			d.Hits = append([]judge.Hit{h}, d.Hits...)
		}
		if d.Error == "" {
			d.Error = strings.Join(r.Failures, "; ")
		}
	}
	d.Verdict, d.Decision = r.Verdict, r.Verdict.String()
	if r.Note != "" {
		d.Note = r.Note
	}
	return d
}

// finish applies the error verdict and fills the entry's decision.
func (r *Result) finish(env *Environ) {
	if len(r.Failures) > 0 {
		r.applyError()
	}
	r.Entry.Decision = r.Verdict.String()
	r.Entry.Attended = !r.Unattended
	r.Entry.Reason = r.entryReason(env.Problems)
}

// applyError makes the verdict at least the error verdict. A catalog
// verdict at least as strict keeps its own explanation; otherwise the
// failures explain it.
func (r *Result) applyError() {
	if r.Hit.RuleID == "" || r.Verdict < ErrorVerdict(r.Unattended) {
		if r.Hit.RuleID != "" && r.Hit.RuleID != judge.RuleSentinelUnjudged {
			r.More = append([]string{r.Hit.RuleID}, r.More...)
		}
		r.Hit = errorHit(r.Failures)
	}
	r.Verdict = max(r.Verdict, ErrorVerdict(r.Unattended))
	r.Entry.Kind = register.KindError
	if !slices.Contains(r.Entry.Rules, judge.RuleSentinelUnjudged) {
		r.Entry.Rules = append(r.Entry.Rules, judge.RuleSentinelUnjudged)
	}
}

// errorHit explains an error decision.
func errorHit(failures []string) judge.Hit {
	return judge.Hit{
		RuleID:      judge.RuleSentinelUnjudged,
		Class:       "error",
		Severity:    "high",
		Verdict:     judge.Ask,
		Reason:      "the guard could not judge or register this call (" + strings.Join(failures, "; ") + ")",
		Alternative: "check the call by hand; run `sentinel doctor` to find the cause",
	}
}

// entryReason is the reason kept in the register: one line, no entry
// number; the attendance signal and the environment's problems included.
func (r *Result) entryReason(problems []string) string {
	var parts []string
	switch {
	case len(r.Failures) == 0:
		if r.Hit.Reason != "" {
			parts = append(parts, r.Hit.Reason)
		}
	case r.Hit.RuleID != "" && r.Hit.RuleID != judge.RuleSentinelUnjudged:
		parts = append(parts, r.Hit.Reason+"; also: "+strings.Join(r.Failures, "; "))
	default:
		parts = append(parts, r.Failures...)
	}
	if r.Unattended && r.Why != "" && r.Verdict != judge.Allow {
		parts = append(parts, "unattended: "+r.Why)
	}
	for _, p := range problems {
		parts = append(parts, "environment: "+p)
	}
	if r.MemoryNote != "" {
		parts = append(parts, r.MemoryNote)
	}
	return strings.Join(parts, "; ")
}
