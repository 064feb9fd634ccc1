package toolcall

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sentinel-guard/sentinel/judge"
)

// MaxReason is Claude Code's cap on a hook's strings: 10,000 characters
// (claude-code.md section 1; section 4 does not contradict it). Claude Code
// counts JavaScript string length, UTF-16 code units, so that is what is
// counted here. It is the only cap on the reason.
const MaxReason = 10_000

// output is the one JSON object written for ask and deny.
type output struct {
	HookSpecificOutput hookOutput `json:"hookSpecificOutput"`
}

type hookOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// fallbackAnswer is written if encoding ever fails; it cannot allow.
const fallbackAnswer = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"sentinel[SENTINEL-UNJUDGED]: could not encode the decision."}}` + "\n"

// Dialect is the contract an answer is written in: the harness that
// called, as the payload says (Payload.Dialect).
type Dialect int

const (
	// DialectUnknown: the payload could not be read, so who called is not
	// known; answered as DialectCodex, the form that blocks in both
	// harnesses (an ask that Codex reads runs).
	DialectUnknown Dialect = iota
	// DialectClaudeCode: allow is silence, ask and deny are themselves.
	DialectClaudeCode
	// DialectCodex: allow is silence; deny is a deny with a non-empty
	// reason; an ask is written as a deny whose reason says it is an ask
	// and how a person approves it (Codex runs a call whose hook answers
	// ask, a bare allow, or a deny without a reason: docs/codex.md).
	DialectCodex
)

// askTail ends the reason of an ask written as a deny (DialectCodex): what
// it is and how a person approves it. The agent cannot approve it: nothing
// it can send makes the guard allow this call.
const (
	askTail = " This is an ask: it needs a person's approval, and Codex cannot put a hook's question to one, so the call is blocked." + approveTail
	// unknownAskTail: the payload did not say which harness sent it, so
	// the answer takes the form that blocks in both and names neither.
	unknownAskTail = " This is an ask: it needs a person's approval, and the payload did not say which harness sent it, so the call is blocked (an ask that Codex reads would run)." + approveTail
	approveTail    = " To approve it, a person runs the command (or makes the change) in their own terminal, outside the agent; the agent cannot approve it, and the same call is blocked again."
)

// writeAnswer writes the decision in the dialect's contract: nothing for
// allow, else one JSON object. tail ends the reason (where the entry is);
// it is never cut.
func writeAnswer(w io.Writer, dl Dialect, v judge.Verdict, body, tail string) {
	if v == judge.Allow {
		return
	}
	decision := v.String()
	if v == judge.Ask && dl != DialectClaudeCode {
		decision = judge.Deny.String()
		if dl == DialectUnknown {
			tail = unknownAskTail + tail
		} else {
			tail = askTail + tail
		}
	}
	reason := capReason(body, tail)
	if reason == "" {
		reason = "sentinel: blocked" // Codex runs a deny without a reason; never reached (the body has the marker)
	}
	b, err := json.Marshal(output{hookOutput{HookEventName: "PreToolUse",
		PermissionDecision: decision, PermissionDecisionReason: reason}})
	if err != nil {
		b = []byte(fallbackAnswer)
	} else {
		b = append(b, '\n')
	}
	w.Write(b)
}

// Reason is what Claude Code shows the model or the user: the marker, the
// strictest rule and why, the safer alternative, the other rules, and
// where the call is recorded; capped once at MaxReason.
func (r *Result) Reason() string { return capReason(r.reasonParts()) }

// reasonParts is Reason's body and tail, for writeAnswer.
func (r *Result) reasonParts() (body, tail string) {
	h := r.Hit
	if h.RuleID == "" {
		h = errorHit(r.Failures)
	}
	switch {
	case r.Seq > 0:
		tail = fmt.Sprintf(" Register entry #%d.", r.Seq)
	case r.Journaled:
		tail = " Register entry pending (kept in the fallback journal)."
	default:
		tail = " Not in the register: it could not be written (see stderr)."
	}
	return judge.ReasonBody(h, r.More, r.Note), tail
}

// capReason joins body and tail within MaxReason UTF-16 code units,
// cutting the body (never the tail, which says where the entry is).
func capReason(body, tail string) string {
	if units(body)+units(tail) <= MaxReason {
		return body + tail
	}
	const ell = "…"
	room := MaxReason - units(tail) - units(ell)
	n, cut := 0, 0
	for i, c := range body {
		w := 1
		if c > 0xFFFF {
			w = 2
		}
		if n+w > room {
			cut = i
			break
		}
		n += w
	}
	return body[:cut] + ell + tail
}

// units is s's length in UTF-16 code units (JavaScript's String.length).
func units(s string) int {
	n := 0
	for _, c := range s {
		n++
		if c > 0xFFFF {
			n++
		}
	}
	return n
}
