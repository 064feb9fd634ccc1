package outcome

// Statuses.
const (
	Approved   = "approved"   // ask, and the call ran or the harness recorded the human's approval
	Declined   = "declined"   // ask, and the harness recorded the human's rejection at the prompt
	Unanswered = "unanswered" // ask, and the harness rejected it because nobody could answer (headless)
	Unknown    = "unknown"    // ask, and no evidence either way
	Held       = "held"       // deny, and the call did not run
	Breached   = "breached"   // deny, and the call ran anyway
	Ran        = "ran"        // allow, and the call ran (ran and failed is ran)
	NotRun     = "not_run"    // allow, and no outcome (refused later, interrupted, or no PostToolUse hook)
)

// Answers the transcripts give for a tool_use id.
const (
	AnswerNone       = ""
	AnswerApproved   = Approved
	AnswerDeclined   = Declined
	AnswerUnanswered = Unanswered
)

// Classify names the outcome of one decision. hasID is false when the
// decision carries no tool_use_id (nothing can be joined); ran is true when
// an outcome entry with its tool_use_id exists; answer is what the
// transcripts recorded for it (Answer*). reason explains unknown and not_run.
func Classify(decision string, hasID, ran bool, answer string) (status, reason string) {
	switch decision {
	case "ask":
		switch {
		case !hasID:
			return Unknown, "the decision has no tool_use_id to join on"
		case ran, answer == AnswerApproved:
			return Approved, ""
		case answer == AnswerDeclined:
			return Declined, ""
		case answer == AnswerUnanswered:
			return Unanswered, "nobody could answer (headless): the harness rejected the ask"
		}
		return Unknown, "no outcome entry and no answer in the transcripts read"
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
		return NotRun, "no outcome entry (the call was refused later, interrupted, or the PostToolUse hooks are not installed)"
	}
	return "", ""
}

// Of is the outcome of one decision, and the one function that gives it:
// outcomes, grades, log and the census all call it, so an entry has one
// answer wherever it is shown. toolUseID is the decision's id ("" none),
// ran whether an outcome entry with that id is joined to it, answers what
// the transcripts read (nil: none were read).
func Of(decision, toolUseID string, ran bool, answers *Answers) (status, reason string) {
	if toolUseID == "" {
		return Classify(decision, false, false, AnswerNone)
	}
	// Only an ask that did not run needs the transcripts' answer: the
	// lookup is skipped for the rest (on disk past spill.DefaultCap ids).
	answer := AnswerNone
	if decision == "ask" && !ran {
		answer = answers.Of(toolUseID)
	}
	status, reason = Classify(decision, true, ran, answer)
	if answers == nil && status == Unknown {
		reason = "no outcome entry, and no transcripts were read"
	}
	return status, reason
}
