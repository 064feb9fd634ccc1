package register

import "time"

// Entry kinds.
const (
	KindDecision = "decision" // a PreToolUse decision (allow, ask, deny)
	KindError    = "error"    // a call that could not be judged or registered normally
	KindGrade    = "grade"    // the operator's grade of an earlier flag (Ref, Label)
	KindOutcome  = "outcome"  // the call with ToolUseID ran (Label LabelRan or LabelRanFailed)
)

// Harnesses (Entry.Harness). Claude Code is the empty string, so that
// every entry written before the field existed reads as what it was.
const (
	HarnessClaudeCode = ""
	HarnessCodex      = "codex"
)

// Outcome labels. Either one means the call ran (a denied call with an
// outcome was breached).
const (
	LabelRan       = "ran"        // PostToolUse: it ran and succeeded
	LabelRanFailed = "ran-failed" // PostToolUseFailure: it ran and failed (or was interrupted)
)

// Entry is one register entry.
//
// Everything except Input and Salt is covered by Hash, so an entry can be
// published as a commitment only (Input and Salt withheld) and still verify.
type Entry struct {
	Seq       int64     `json:"seq"`  // 1, 2, 3, ... assigned by Append
	Kind      string    `json:"kind"` // one of the Kind constants
	Time      time.Time `json:"time"` // UTC, assigned by Append when zero
	SessionID string    `json:"session_id"`
	ToolUseID string    `json:"tool_use_id"`
	Cwd       string    `json:"cwd"`
	Tool      string    `json:"tool"`

	// Input is the canonical tool input (hook.Canonical), kept locally for
	// replay; nil in a commitment-only entry. Salt is 32 random bytes drawn
	// by Append. Commitment is sha256(Salt || Input), hex.
	Input      []byte `json:"input,omitempty"`
	Salt       []byte `json:"salt,omitempty"`
	Commitment string `json:"commitment"`

	Decision       string   `json:"decision"` // allow, ask, deny ("" for grade/outcome)
	Rules          []string `json:"rules"`    // rule ids that fired, never nil
	Reason         string   `json:"reason"`
	Attended       bool     `json:"attended"`
	PermissionMode string   `json:"permission_mode"`
	CatalogVersion string   `json:"catalog_version"`
	CatalogHash    string   `json:"catalog_hash"`
	Version        string   `json:"sentinel_version"`

	// Ref is the sequence number an entry refers to (a grade's flag), 0
	// otherwise. Label is the grade (true, false, unclear) or the outcome
	// ("ran"); "" otherwise.
	Ref   int64  `json:"ref,omitempty"`
	Label string `json:"label,omitempty"`

	// Facts are what a decision leaves for the same session's later calls
	// (package session: files written and the verdict their content would
	// get, a secret read), compact JSON; "" for none. Covered by Hash.
	Facts string `json:"facts,omitempty"`

	// Harness is the agent that made the call: "" for Claude Code (every
	// entry before schema v5), HarnessCodex for OpenAI's Codex CLI. The hook
	// tells them apart from the payload (package toolcall). Covered by Hash.
	Harness string `json:"harness,omitempty"`

	PrevHash string `json:"prev_hash"` // hex; 64 zeros for the first entry
	Hash     string `json:"hash"`      // hex, see EntryHash
}
