// Package outcome joins every PreToolUse decision in the register to what
// happened afterwards: whether the call ran (an outcome entry written by the
// PostToolUse path with the same tool_use_id) or the user rejected it (the
// transcript's rejection record for that tool_use_id).
//
// An ask is approved, declined or unknown; a deny held or breached (it ran
// anyway); an allow ran or not_run. A breach is a finding: the harness did
// not obey the guard. It never breaks the chain.
package outcome

// Statuses.
const (
	Approved = "approved" // ask, and the call ran
	Declined = "declined" // ask, and the transcript shows the user's rejection
	Unknown  = "unknown"  // ask, and no evidence either way
	Held     = "held"     // deny, and the call did not run
	Breached = "breached" // deny, and the call ran anyway
	Ran      = "ran"      // allow, and the call ran
	NotRun   = "not_run"  // allow, and no outcome (refused later, interrupted, or no PostToolUse hook)
)

// Classify names the outcome of one decision. hasID is false when the
// decision carries no tool_use_id (nothing can be joined); ran is true when
// an outcome entry with its tool_use_id exists; declined when a transcript
// shows the user's rejection. reason explains unknown and not_run.
func Classify(decision string, hasID, ran, declined bool) (status, reason string) {
	switch decision {
	case "ask":
		switch {
		case !hasID:
			return Unknown, "the decision has no tool_use_id to join on"
		case ran:
			return Approved, ""
		case declined:
			return Declined, ""
		}
		return Unknown, "no outcome entry and no rejection in the transcripts read"
	case "deny":
		if !hasID {
			return Held, "the decision has no tool_use_id: a breach could not be seen"
		}
		if ran {
			return Breached, ""
		}
		return Held, ""
	case "allow":
		if hasID && ran {
			return Ran, ""
		}
		if !hasID {
			return NotRun, "the decision has no tool_use_id to join on"
		}
		return NotRun, "no outcome entry (the call was refused later, interrupted, or the PostToolUse hook is not installed)"
	}
	return "", ""
}
