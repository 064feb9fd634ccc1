package judge

import (
	"encoding/json"

	"github.com/sentinel-guard/sentinel/parse"
)

// Verdict is a decision. The order matters: a larger verdict is stricter.
type Verdict int

const (
	Allow Verdict = iota // no objection: the hook prints nothing
	Ask                  // a human must approve
	Deny                 // blocked
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "invalid"
}

// ParseVerdict reads "allow", "ask" or "deny".
func ParseVerdict(s string) (Verdict, bool) {
	switch s {
	case "allow":
		return Allow, true
	case "ask":
		return Ask, true
	case "deny":
		return Deny, true
	}
	return Allow, false
}

// Call is one tool call as Claude Code (or Codex) sends it to a PreToolUse hook.
// Unknown fields are ignored.
type Call struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	AgentID        string          `json:"agent_id,omitempty"`
	// Harness is the agent that sent the call: "" Claude Code, HarnessCodex
	// for OpenAI's Codex CLI (the hook tells them apart from the payload;
	// the register keeps it, so replay judges the call as it was).
	Harness string `json:"-"`
}

// HarnessCodex is Call.Harness for OpenAI's Codex CLI (register.HarnessCodex).
const HarnessCodex = "codex"

// Env is what the decision needs to know about the machine and operator.
type Env struct {
	Home       string // the user's home directory
	ProjectDir string // $CLAUDE_PROJECT_DIR, or the call's cwd
	// Unattended forces unattended mode (SENTINEL_UNATTENDED=1). The call's
	// permission_mode bypassPermissions or dontAsk also makes it unattended.
	Unattended bool
	// Config is the merged operator and project configuration; nil means
	// the shipped defaults.
	Config *Config
	// Protected are paths of the sentinel itself (register, config, keys,
	// binaries) that the agent must not read or write, besides the
	// defaults the catalog derives from Home.
	Protected []string
	// StateDir is the register's directory and ConfigDir the operator's
	// configuration directory (whose *.key files may not be read): both
	// protected. The caller resolves them (package toolcall does, from the
	// environment): Decide reads no environment variable.
	StateDir, ConfigDir string
	// AgentDirs are the configuration directories the environment moved
	// an agent's settings to (CLAUDE_CONFIG_DIR, CODEX_HOME): protected
	// like ~/.claude and ~/.codex (protected.go).
	AgentDirs []string
	// Memory is what the session's earlier calls left (session.go); nil:
	// none (check, explain, replay of a single call).
	Memory Memory
	// NoFiles: scripts that are run are not read from disk (replay: the
	// register's past is judged as written, not against today's disk, and
	// Decide stays a pure function of the call and Env).
	NoFiles bool
}

// Hit is one rule that fired.
type Hit struct {
	RuleID      string  `json:"rule"`
	Class       string  `json:"class"`
	Severity    string  `json:"severity"`
	Verdict     Verdict `json:"-"`
	Decision    string  `json:"decision"` // Verdict as text
	Reason      string  `json:"reason"`
	Alternative string  `json:"alternative"`
	// Detail says which execution or path triggered it, for explain and
	// the local log. It may hold command text: never publish it.
	Detail string `json:"detail,omitempty"`
	// After is the earlier register entry a session rule fired on (the
	// read of the secret, the write of the script), 0 for none: the reason
	// names it, so "+1 more: SESSION-SECRET-SEND" says which call.
	After int64 `json:"after,omitempty"`
}

// Decision is the outcome of Decide.
type Decision struct {
	Verdict    Verdict `json:"-"`
	Decision   string  `json:"decision"` // Verdict as text
	Hits       []Hit   `json:"hits,omitempty"`
	Unattended bool    `json:"unattended"`
	// Error is set when the call could not be judged (parse failure,
	// limits, malformed input); the verdict is then Ask attended and Deny
	// unattended, never Allow.
	Error string `json:"error,omitempty"`
	// Note explains a change made after judging, for example
	// "unattended: ask became deny".
	Note string `json:"note,omitempty"`
	// Facts are what the call leaves for the session's later calls
	// (session.go); nil when none.
	Facts *Facts `json:"facts,omitempty"`
	// Used is what the decision rested on besides the call's text, for
	// explain: the executions judged (those inside scripts read from disk
	// or written earlier included), what the session's memory answered,
	// what the must-keep gate held. Nil when nothing was used.
	Used *Used `json:"used,omitempty"`
}

// Used is what a decision rested on (Decision.Used).
type Used struct {
	// Parse is what the judge read the command as (Bash), every execution
	// it judged, those of script files included (parse.Exec.InFile).
	Parse *parse.Result `json:"-"`
	// Memory is what the session's memory answered, one line a fact.
	Memory []string `json:"memory,omitempty"`
	// Gate is what the must-keep gate held closed, one line a rule.
	Gate []string `json:"gate,omitempty"`
}

// RuleIDs lists the ids of the hits, in order.
func (d Decision) RuleIDs() []string {
	ids := make([]string, 0, len(d.Hits))
	for _, h := range d.Hits {
		ids = append(ids, h.RuleID)
	}
	return ids
}

// Marker starts every reason the hook gives Claude Code, followed by the
// rule id and "]:", so that transcripts show whose stop it was:
// "sentinel[GIT-RESET-HARD]: ...". The census recognises it; never change it.
const Marker = "sentinel["
