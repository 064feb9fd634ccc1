package census

import (
	"strings"
)

// Stoppers: who stopped a tool call. These are the keys of stops.json.
const (
	StopClassifier = "classifier"       // the harness's auto-mode classifier
	StopRules      = "permission_rules" // the operator's permission deny rules
	StopNoHuman    = "no_human_mode"    // a mode in which no human could answer a prompt
	StopSentinel   = "sentinel"         // this project's hook, by its fixed marker
	StopOtherHooks = "other_hooks"      // any other PreToolUse hook
	StopUser       = "user"             // the human rejecting the permission prompt
)

// Classifier kinds (from toolDenialKind automode-* or the fixed texts).
const (
	kindBlocked      = "blocked"
	kindUnavailable  = "unavailable"
	kindParsingError = "parsing_error"
)

// ClassifierCategories is the fixed allow-list of the auto-mode classifier's
// bracketed reasons ("Reason: [Data Exfiltration]") that may appear in
// stops.json, mapped to their keys. Anything else is "other" and a reason
// without brackets ("Blocked by classifier") is "unspecified": the reason is
// free text the classifier wrote about the call, so only a known category
// name may pass.
var ClassifierCategories = map[string]string{
	"Data Exfiltration":      "data_exfiltration",
	"Destructive Action":     "destructive_action",
	"Irreversible Action":    "irreversible_action",
	"Credential Access":      "credential_access",
	"Security Weakening":     "security_weakening",
	"Privilege Escalation":   "privilege_escalation",
	"Remote Code Execution":  "remote_code_execution",
	"Scope Violation":        "scope_violation",
	"Prompt Injection":       "prompt_injection",
	"External System Change": "external_system_change",
}

// Category keys besides the allow-listed ones.
const (
	catOther       = "other"
	catUnspecified = "unspecified"
)

// verdict is what one tool result says about its call.
type verdict struct {
	stopper  string // "" when the result is not a stop
	kind     string // classifier kind
	category string // classifier category key
}

// Fixed texts of Claude Code (../shared/docs/claude-code.md §2). Only these
// prefixes and suffixes are ever compared; the middle of a message, which
// holds commands and paths, is never kept.
const (
	txtUserPrompt      = "The user doesn't want to proceed with this tool use. The tool use was rejected"
	txtUserSubagent    = "Permission for this tool use was denied. The tool use was rejected"
	txtUserEsc         = "User rejected tool use"
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
	txtSentinelStderr  = "]: " + Marker
)

// Marker is the fixed start of every reason the sentinel hook gives
// (hook.Marker; repeated here so that this package does not need the hook
// to recognise its own stops).
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

// denialKinds maps toolDenialKind values (Claude Code >= ~2.1.205).
// "interrupted" and "cancelled" are aborts, not denials.
var denialKinds = map[string]bool{
	"user-rejected": true, "permission-rule": true, "automode-blocked": true,
	"automode-unavailable": true, "automode-parsing-error": true,
	"interrupted": false, "cancelled": false,
}

// attribute decides who, if anyone, stopped a call from its result.
// denialKind is the record's toolDenialKind ("" in older files); text is the
// tool_result content (or the toolUseResult string without "Error: "),
// isError its is_error flag; textOK is false for results whose text must
// never be matched (mcp__* tools, or results whose call was not seen).
func attribute(denialKind string, s snippet, isError, textOK bool) verdict {
	switch denialKind {
	case "":
		// Older file: the text alone decides.
	case "user-rejected":
		return verdict{stopper: StopUser}
	case "automode-blocked":
		return verdict{stopper: StopClassifier, kind: kindBlocked, category: classifierCategory(s, textOK)}
	case "automode-unavailable":
		return verdict{stopper: StopClassifier, kind: kindUnavailable}
	case "automode-parsing-error":
		return verdict{stopper: StopClassifier, kind: kindParsingError}
	case "permission-rule":
		// Deny rules, permission modes and hooks share this kind: the fixed
		// texts tell them apart; a text none of them wrote is a hook's own
		// reason, passed on verbatim.
		if textOK {
			if v := judgeText(s); v.stopper != "" && v.stopper != StopUser && v.stopper != StopClassifier {
				return v
			}
		}
		return verdict{stopper: StopOtherHooks}
	default:
		return verdict{} // aborts and kinds this build does not know
	}
	if !textOK {
		return verdict{}
	}
	if s.whole && s.head == txtUserEsc {
		return verdict{stopper: StopUser}
	}
	if !isError {
		return verdict{}
	}
	return judgeText(s)
}

// judgeText recognises the fixed denial texts.
func judgeText(s snippet) verdict {
	switch {
	case s.whole && s.head == txtUserEsc,
		s.hasPrefix(txtUserPrompt), s.hasPrefix(txtUserSubagent):
		return verdict{stopper: StopUser}
	case s.hasPrefix(txtClassifier), s.hasPrefix(txtClassifierOld):
		return verdict{stopper: StopClassifier, kind: kindBlocked, category: classifierCategory(s, true)}
	case s.hasPrefix(txtClassifierParse):
		return verdict{stopper: StopClassifier, kind: kindParsingError}
	case s.headContains(txtClassifierDown):
		return verdict{stopper: StopClassifier, kind: kindUnavailable}
	case s.hasPrefix(txtNoPrompts),
		s.hasPrefix(txtPermUse) && s.headContains(txtDontAskMid):
		return verdict{stopper: StopNoHuman}
	case s.hasPrefix(Marker),
		s.hasPrefix(txtHookError) && s.headContains(txtSentinelStderr):
		return verdict{stopper: StopSentinel}
	case s.hasPrefix(txtHookError) && s.headContains(txtHookErrorMid),
		s.hasPrefix(txtHookNoReason) && s.hasSuffix(txtHookNoReasonEnd):
		return verdict{stopper: StopOtherHooks}
	case (s.hasPrefix(txtPermUse) || s.hasPrefix(txtPermRead) || s.hasPrefix(txtPermEdit)) && s.hasSuffix(txtPermSuffix),
		s.hasPrefix(txtWebFetch),
		s.hasPrefix(txtRedirect) && s.hasSuffix(txtRedirectSuffix):
		return verdict{stopper: StopRules}
	}
	return verdict{}
}

// classifierCategory reads the bracketed category after "Reason: " and
// passes it only when it is on the allow-list.
func classifierCategory(s snippet, textOK bool) string {
	if !textOK {
		return catUnspecified
	}
	var rest string
	switch {
	case s.hasPrefix(txtClassifier):
		rest = s.head[len(txtClassifier):]
	case s.hasPrefix(txtClassifierOld):
		rest = s.head[len(txtClassifierOld):]
	default:
		return catUnspecified
	}
	if !strings.HasPrefix(rest, "[") {
		return catUnspecified
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return catOther
	}
	if key, ok := ClassifierCategories[rest[1:end]]; ok {
		return key
	}
	return catOther
}
