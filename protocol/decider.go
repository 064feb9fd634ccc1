package protocol

import (
	"github.com/sentinel-guard/sentinel/hook"
	"github.com/sentinel-guard/sentinel/register"
)

// HookDecider re-decides entries with the catalog of the running binary and
// cfg (nil: the shipped defaults). Each entry is judged in the mode it was
// recorded in: unattended when no human could answer, so an ask that became
// a deny then is a deny again now. env supplies Home and Protected; the
// project directory is the entry's cwd.
func HookDecider(cfg *hook.Config, env hook.Env) Decider {
	return func(e register.Entry) (Redecision, error) {
		call := hook.Call{SessionID: e.SessionID, Cwd: e.Cwd, PermissionMode: e.PermissionMode,
			HookEventName: "PreToolUse", ToolName: e.Tool, ToolInput: e.Input, ToolUseID: e.ToolUseID}
		en := env
		en.Config, en.ProjectDir, en.Unattended = cfg, e.Cwd, !e.Attended
		d := hook.Decide(call, en)
		rules := d.RuleIDs()
		if rules == nil {
			rules = []string{}
		}
		return Redecision{Decision: d.Verdict.String(), Rules: rules, Error: d.Error}, nil
	}
}
