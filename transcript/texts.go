package transcript

import "strings"

// Fixed texts of Claude Code (../shared/docs/claude-code.md §2 and §4).
// Only these prefixes and suffixes are ever compared; the middle of a
// message, which holds commands and paths, is never kept.
const (
	txtUserPrompt      = "The user doesn't want to proceed with this tool use. The tool use was rejected"
	txtUserSubagent    = "Permission for this tool use was denied. The tool use was rejected"
	TxtUserEsc         = "User rejected tool use"
	txtClassifier      = "Permission for this action was denied by the Claude Code auto mode classifier. Reason: "
	txtClassifierOld   = "Permission for this action has been denied. Reason: "
	txtClassifierDown  = " is temporarily unavailable, so auto mode cannot determine the safety of "
	txtClassifierParse = "Auto mode could not evaluate this action and is blocking it for safety"
	txtDontAskMid      = " has been denied because Claude Code is running in don't ask mode"
	txtNoPrompts       = "Permission for this tool use was denied: it requires interactive approval, and permission prompts are not available in this session"
	txtPermUse         = "Permission to use "
	txtPermRead        = "Permission to read "
	txtPermEdit        = "Permission to edit "
	txtPermSuffix      = " has been denied."
	txtWebFetch        = "WebFetch denied access to domain:"
	txtRedirect        = "Output redirection to '"
	txtRedirectSuffix  = "' was blocked by a deny rule."
	txtHookError       = "PreToolUse:"
	txtHookErrorMid    = " hook error: "
	txtHookNoReason    = "Hook PreToolUse:"
	txtHookNoReasonEnd = " denied this tool"
)

// Marker is the fixed start of every reason the sentinel hook gives
// (judge.Marker; repeated here so that reading transcripts does not need
// the decision engine). Anyone can print it: a stop is the sentinel's only
// when its register confirms it.
const Marker = "sentinel["

// snippet is the part of a result text that matching may look at: its
// first headLen and last tailLen bytes. It is dropped after the line.
type snippet struct {
	head, tail string
	whole      bool // head is the whole text
}

const (
	headLen = 512
	tailLen = 160
)

func newSnippet(s string) snippet {
	s = strings.TrimSpace(s)
	if len(s) <= headLen {
		return snippet{head: s, tail: s, whole: true}
	}
	return snippet{head: s[:headLen], tail: s[len(s)-tailLen:]}
}

func (s snippet) hasPrefix(p string) bool { return strings.HasPrefix(s.head, p) }
func (s snippet) hasSuffix(p string) bool { return strings.HasSuffix(s.tail, p) }

// headContains tests a fixed text near the start (where the harness puts
// a tool name or hook command before it), never deep in the message.
func (s snippet) headContains(p string) bool {
	h := s.head
	if len(h) > 256+len(p) {
		h = h[:256+len(p)]
	}
	return strings.Contains(h, p)
}

// hookReason strips the harness's "PreToolUse:<Tool> hook error: " prefix
// (2.1.328 puts it before a JSON deny's reason; exit 2 puts it before
// "[<hook command>]: <stderr>"). ok is false when the prefix is absent.
func (s snippet) hookReason() (rest string, ok bool) {
	if !s.hasPrefix(txtHookError) {
		return "", false
	}
	h := s.head
	if len(h) > 256+len(txtHookErrorMid) {
		h = h[:256+len(txtHookErrorMid)]
	}
	i := strings.Index(h, txtHookErrorMid)
	if i < 0 {
		return "", false
	}
	// The tool name sits between the two fixed parts: no spaces in it.
	if strings.ContainsAny(s.head[len(txtHookError):i], " \n") {
		return "", false
	}
	return s.head[i+len(txtHookErrorMid):], true
}

// hasMarker reports whether the reason a hook gave starts with the
// sentinel's marker: at the very start (a reason passed on verbatim), after
// the hook-error prefix (a JSON deny in 2.1.328), or after the exit-2
// form's "[<hook command>]: ".
func (s snippet) hasMarker() bool {
	if s.hasPrefix(Marker) {
		return true
	}
	rest, ok := s.hookReason()
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, Marker) {
		return true
	}
	if strings.HasPrefix(rest, "[") {
		lim := rest
		if len(lim) > 256+len(Marker) {
			lim = lim[:256+len(Marker)]
		}
		return strings.Contains(lim, "]: "+Marker)
	}
	return false
}
