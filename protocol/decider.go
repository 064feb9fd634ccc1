package protocol

import (
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// HookDecider re-decides entries with the catalog of the running binary and
// cfg (nil: the shipped defaults). Each entry is judged in the mode it was
// recorded in: unattended when no human could answer, so an ask that became
// a deny then is a deny again now. env supplies Home and Protected; the
// project directory is the entry's cwd.
//
// Decide is a pure function of the call and env, so identical calls (the
// same tool, input, cwd, permission mode and attendance: most of a real
// register is git status and npm test) are decided once; the memo is
// bounded so a register of unique inputs costs no more than plain calls.
func HookDecider(cfg *judge.Config, env judge.Env) Decider {
	memo := map[string]Redecision{}
	return func(e register.Entry) (Redecision, error) {
		key := memoKey(e)
		if d, ok := memo[key]; ok {
			return d, nil
		}
		call := judge.Call{SessionID: e.SessionID, Cwd: e.Cwd, PermissionMode: e.PermissionMode,
			HookEventName: "PreToolUse", ToolName: e.Tool, ToolInput: e.Input, ToolUseID: e.ToolUseID}
		en := env
		en.Config, en.ProjectDir, en.Unattended = cfg, e.Cwd, !e.Attended
		en.NoFiles, en.Memory = true, nil // a pure function of the entry: no disk, no session
		d := judge.Decide(call, en)
		rules := d.RuleIDs()
		if rules == nil {
			rules = []string{}
		}
		rd := Redecision{Decision: d.Verdict.String(), Rules: rules, Error: d.Error}
		if len(memo) < maxMemo {
			memo[key] = rd
		}
		return rd, nil
	}
}

// maxMemo bounds the memo (about 100 bytes of key per typical command).
const maxMemo = 200_000

func memoKey(e register.Entry) string {
	att := "u"
	if e.Attended {
		att = "a"
	}
	// NUL cannot occur in a tool name, path or permission mode.
	return e.Tool + "\x00" + e.Cwd + "\x00" + e.PermissionMode + "\x00" + att + "\x00" + string(e.Input)
}
