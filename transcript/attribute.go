package transcript

import "strings"

// Stoppers: who stopped a tool call. These are the keys of stops.json.
const (
	StopClassifier = "classifier"       // the harness's auto-mode classifier
	StopRules      = "permission_rules" // the operator's permission deny rules
	StopNoHuman    = "no_human_mode"    // nobody could answer: a mode, or no prompt possible
	StopHook       = "hook"             // a PreToolUse hook (Verdict.Marker says whether it printed the sentinel's marker)
	StopUser       = "user"             // the human rejecting the permission prompt
)

// Classifier kinds (from toolDenialKind automode-*, reasonCode or the fixed texts).
const (
	KindBlocked      = "blocked"
	KindUnavailable  = "unavailable"
	KindParsingError = "parsing_error"
)

// The human's answers at the permission prompt.
const (
	AnswerApproved = "approved"
	AnswerDeclined = "declined"
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
	CatOther       = "other"
	CatUnspecified = "unspecified"
)

// Verdict is what one tool result says about its call.
type Verdict struct {
	Stopper  string // "" when the result is not a stop
	Kind     string // classifier kind
	Category string // classifier category key
	// Marker: a hook stop whose reason starts with the sentinel's marker.
	// Only the register can confirm that the sentinel gave it.
	Marker bool
	// Unanswered: a hook's ask that the harness rejected because nobody
	// could answer (headless); the stopper is still the hook that asked.
	Unanswered bool
	// Answer is the human's answer at the permission prompt ("" none).
	Answer string
	// HookAsk: the prompt answered was a hook's ask (reasonCode hook:*).
	HookAsk bool
	// Structured: decided from the harness's permissionDecision record.
	Structured bool
	// Codex: read from a Codex rollout (codex.go), which records hook
	// stops only.
	Codex bool
}

// PermissionDecision is the structured record Claude Code 2.1.328 writes
// on the result of every decided call (§4). Only these fields are read.
type PermissionDecision struct {
	Decision   string `json:"decision"`   // accept, reject
	Source     string `json:"source"`     // hook, config, user_temporary, ...
	ReasonType string `json:"reasonType"` // hook, mode, subcommandResults, classifier, ...
	ReasonCode string `json:"reasonCode"` // hook:PreToolUse, mode:dontAsk, rule:userSettings, ...
}

// denialKinds maps toolDenialKind values (Claude Code >= ~2.1.205).
// "interrupted" and "cancelled" are aborts, not denials.
var denialKinds = map[string]bool{
	"user-rejected": true, "permission-rule": true, "automode-blocked": true,
	"automode-unavailable": true, "automode-parsing-error": true,
	"interrupted": false, "cancelled": false,
}

// KnownDenialKind reports whether this build knows a toolDenialKind value.
func KnownDenialKind(k string) bool { _, ok := denialKinds[k]; return ok }

// IsAbort reports whether a toolDenialKind is an abort, not a denial.
func IsAbort(k string) bool { return k == "interrupted" || k == "cancelled" }

// resultIn is what attribution may look at for one tool result.
type resultIn struct {
	denialKind string
	pd         *PermissionDecision
	snip       snippet
	isError    bool
	textOK     bool // false: the text must never be matched (mcp__* output, or no call seen)
	esc        bool // toolUseResult is "User rejected tool use"
	headless   bool // entrypoint sdk-cli: no prompt could be shown
	codex      bool // from a Codex rollout
}

// attribute decides who, if anyone, stopped a call: from the harness's
// structured permissionDecision first, then toolDenialKind, then (files of
// versions that write neither) the fixed texts.
func attribute(in *resultIn) Verdict {
	if in.codex {
		return codexVerdict(in)
	}
	if in.pd != nil {
		if v, ok := fromDecision(in); ok {
			return v
		}
	}
	v := fromKindAndText(in)
	if v.Stopper == StopUser {
		v.Answer = AnswerDeclined
		if in.headless {
			// -p has no prompt: a "user-rejected" there is nobody's answer.
			v = Verdict{Stopper: StopNoHuman}
		}
	}
	return v
}

// fromDecision reads the permissionDecision record (§4 table). ok is false
// for a decision value this build does not know: the older paths decide.
func fromDecision(in *resultIn) (Verdict, bool) {
	pd := in.pd
	v := Verdict{Structured: true}
	hookCode := strings.HasPrefix(pd.ReasonCode, "hook:")
	human := strings.HasPrefix(pd.Source, "user")
	switch pd.Decision {
	case "accept":
		if human {
			v.Answer, v.HookAsk = AnswerApproved, hookCode
		}
		return v, true
	case "reject":
	default:
		return v, false
	}
	switch {
	case pd.Source == "hook" || pd.ReasonType == "hook":
		// A hook's deny; which hook only its reason's marker can say.
		v.Stopper, v.Marker = StopHook, in.textOK && in.snip.hasMarker()
	case hookCode:
		// A hook's ask rejected by the harness: nobody could answer.
		v.Stopper, v.Marker, v.Unanswered = StopHook, in.textOK && in.snip.hasMarker(), true
	case strings.HasPrefix(pd.ReasonCode, "rule:") || pd.ReasonType == "subcommandResults" || pd.ReasonType == "rule":
		// Before the source: in -p 2.1.328 writes an operator deny rule
		// with source "user_reject" (the e2e suite's p-* runs).
		v.Stopper = StopRules
	case human:
		v.Stopper, v.Answer = StopUser, AnswerDeclined
	case strings.HasPrefix(pd.ReasonCode, "classifier:") || pd.ReasonType == "classifier" ||
		strings.HasPrefix(in.denialKind, "automode-"):
		v.Stopper, v.Kind = StopClassifier, classifierKind(in.denialKind, pd.ReasonCode)
		if v.Kind == KindBlocked {
			v.Category = classifierCategory(in.snip, in.textOK)
		}
	default:
		// mode:dontAsk, mode:plan, and a call that needed approval with no
		// prompt possible (unknown, bashMiss:*, safetyCheck): nobody to ask.
		v.Stopper = StopNoHuman
	}
	return v, true
}

func classifierKind(denialKind, code string) string {
	switch {
	case denialKind == "automode-unavailable", strings.HasSuffix(code, ":unavailable"):
		return KindUnavailable
	case denialKind == "automode-parsing-error", strings.Contains(code, "pars"):
		return KindParsingError
	}
	return KindBlocked
}

// fromKindAndText is the attribution of files without permissionDecision:
// toolDenialKind where the version writes it, else the fixed texts.
func fromKindAndText(in *resultIn) Verdict {
	s := in.snip
	switch in.denialKind {
	case "":
		// Older file: the text alone decides.
	case "user-rejected":
		if in.textOK && s.hasMarker() {
			// A hook's ask nobody could answer: the reason is verbatim.
			return Verdict{Stopper: StopHook, Marker: true, Unanswered: true}
		}
		return Verdict{Stopper: StopUser}
	case "automode-blocked":
		return Verdict{Stopper: StopClassifier, Kind: KindBlocked, Category: classifierCategory(s, in.textOK)}
	case "automode-unavailable":
		return Verdict{Stopper: StopClassifier, Kind: KindUnavailable}
	case "automode-parsing-error":
		return Verdict{Stopper: StopClassifier, Kind: KindParsingError}
	case "permission-rule":
		// Deny rules, permission modes and hooks share this kind: the fixed
		// texts tell them apart; a text none of them wrote is a hook's own
		// reason, passed on verbatim.
		if in.textOK {
			if v := judgeText(s); v.Stopper != "" && v.Stopper != StopUser && v.Stopper != StopClassifier {
				return v
			}
		}
		return Verdict{Stopper: StopHook}
	default:
		return Verdict{} // aborts and kinds this build does not know
	}
	if !in.textOK {
		return Verdict{}
	}
	if in.esc || s.whole && s.head == TxtUserEsc {
		return Verdict{Stopper: StopUser}
	}
	if !in.isError {
		return Verdict{}
	}
	return judgeText(s)
}

// judgeText recognises the fixed denial texts.
func judgeText(s snippet) Verdict {
	switch {
	case s.whole && s.head == TxtUserEsc,
		s.hasPrefix(txtUserPrompt), s.hasPrefix(txtUserSubagent):
		return Verdict{Stopper: StopUser}
	case s.hasPrefix(txtClassifier), s.hasPrefix(txtClassifierOld):
		return Verdict{Stopper: StopClassifier, Kind: KindBlocked, Category: classifierCategory(s, true)}
	case s.hasPrefix(txtClassifierParse):
		return Verdict{Stopper: StopClassifier, Kind: KindParsingError}
	case s.headContains(txtClassifierDown):
		return Verdict{Stopper: StopClassifier, Kind: KindUnavailable}
	case s.hasPrefix(txtNoPrompts),
		s.hasPrefix(txtPermUse) && s.headContains(txtDontAskMid):
		return Verdict{Stopper: StopNoHuman}
	case s.hasMarker():
		return Verdict{Stopper: StopHook, Marker: true}
	case s.hasPrefix(txtHookError) && s.headContains(txtHookErrorMid),
		s.hasPrefix(txtHookNoReason) && s.hasSuffix(txtHookNoReasonEnd):
		return Verdict{Stopper: StopHook}
	case (s.hasPrefix(txtPermUse) || s.hasPrefix(txtPermRead) || s.hasPrefix(txtPermEdit)) && s.hasSuffix(txtPermSuffix),
		s.hasPrefix(txtWebFetch),
		s.hasPrefix(txtRedirect) && s.hasSuffix(txtRedirectSuffix):
		return Verdict{Stopper: StopRules}
	}
	return Verdict{}
}

// classifierCategory reads the bracketed category after "Reason: " and
// passes it only when it is on the allow-list.
func classifierCategory(s snippet, textOK bool) string {
	if !textOK {
		return CatUnspecified
	}
	var rest string
	switch {
	case s.hasPrefix(txtClassifier):
		rest = s.head[len(txtClassifier):]
	case s.hasPrefix(txtClassifierOld):
		rest = s.head[len(txtClassifierOld):]
	default:
		return CatUnspecified
	}
	if !strings.HasPrefix(rest, "[") {
		return CatUnspecified
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return CatOther
	}
	if key, ok := ClassifierCategories[rest[1:end]]; ok {
		return key
	}
	return CatOther
}
