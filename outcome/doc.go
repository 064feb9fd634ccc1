// Package outcome joins every PreToolUse decision in the register to what
// happened afterwards: whether the call ran (an outcome entry written by the
// PostToolUse or PostToolUseFailure path with the same tool_use_id), and
// what the harness recorded in the transcript (the human's approval or
// rejection at the prompt, or the rejection of an ask nobody could answer).
//
// An ask is approved, declined, unanswered or unknown; a deny held or
// breached (it ran anyway, whether or not it then failed); an allow ran or
// not_run. A breach is a finding: the harness did not obey the guard. It
// never breaks the chain.
package outcome
