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

// writeAnswer writes the decision: nothing for allow, else one JSON object.
func writeAnswer(w io.Writer, v judge.Verdict, reason string) {
	if v == judge.Allow {
		return
	}
	b, err := json.Marshal(output{hookOutput{HookEventName: "PreToolUse",
		PermissionDecision: v.String(), PermissionDecisionReason: reason}})
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
func (r *Result) Reason() string {
	h := r.Hit
	if h.RuleID == "" {
		h = errorHit(r.Failures)
	}
	var tail string
	switch {
	case r.Seq > 0:
		tail = fmt.Sprintf(" Register entry #%d.", r.Seq)
	case r.Journaled:
		tail = " Register entry pending (kept in the fallback journal)."
	default:
		tail = " Not in the register: it could not be written (see stderr)."
	}
	return capReason(judge.ReasonBody(h, r.More, r.Note), tail)
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
