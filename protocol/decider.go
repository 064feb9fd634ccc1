package protocol

import (
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/toolcall"
)

// HookDecider re-decides entries on the hook's own path
// (toolcall.Redecide) with the catalog of the running binary and cfg (nil:
// the shipped defaults). Each entry is judged in the mode it was recorded
// in (unattended when no human could answer, so an ask that became a deny
// then is a deny again now), with the session memory ReplayFrom rebuilt
// from the register, no script read from today's disk and no must-keep
// gate (replay is what the gate consumes). env supplies Home and the
// protected paths; the project directory is the entry's cwd.
//
// The decision is a pure function of the entry, env and its memory, so
// identical calls that asked no memory (most of a real register is git
// status and npm test) are decided once; the memo is bounded so a register
// of unique inputs costs no more than plain calls.
func HookDecider(cfg *judge.Config, env *toolcall.Environ) Decider {
	memo := map[string]Redecision{}
	return func(e register.Entry, mem judge.Memory) (Redecision, error) {
		key := memoKey(e)
		if d, ok := memo[key]; ok {
			return d, nil
		}
		asker, _ := mem.(interface{ Asked() bool })
		r := toolcall.Redecide(&e, env, cfg, mem)
		rules := r.Entry.Rules
		if rules == nil {
			rules = []string{}
		}
		rd := Redecision{Decision: r.Verdict.String(), Rules: rules}
		if len(r.Failures) > 0 {
			rd.Error = r.Entry.Reason
		}
		if len(memo) < maxMemo && (asker == nil || !asker.Asked()) {
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
