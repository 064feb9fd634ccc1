package census

// Fixed sentences of stops.json. They name what the numbers cannot show.

const (
	reasonHuman = "Oversight that steers the agent in conversation, before any tool call, leaves no record in transcripts or the register; only prompt rejections are counted (stops.user)."

	reasonNoTranscripts = "No transcript was read: nothing here can say how many tool calls there were or who stopped them, so these cells are null, not 0."

	reasonNoApprovals = "No transcript held the harness's permissionDecision records (Claude Code before 2.1.328 writes none): approvals at the prompt leave no trace there."

	noteHumanAtPrompt = "The human's answers at the permission prompt, from the harness's own records: declined are the prompt rejections (stops.user); approved are permissionDecision accepts with a user source (a person said yes). Asks rejected because nobody could answer (headless) are neither."

	noteOutcomes = "What happened after the sentinel's asks and denies in the window, joined by tool_use_id: approved and breached need the register's outcome entries (PostToolUse), declined the user's rejections in the transcripts; a cell without its evidence is null."

	reasonCodexOnly = "Only Codex rollouts were read, and a rollout records one kind of stop: a PreToolUse hook's block (\"Command blocked by PreToolUse hook: ...\"). codex exec never prompts (its approval policy is never), so no human answers or rejects there; Codex's own refusals (its sandbox, exec policy rules, the TUI's approval prompt) leave no fixed text this build reads. Null, not 0."

	reasonCodexMixed = "Counted from Claude Code's transcripts only: the Codex rollouts read (sources.codex_files) record hook stops alone, so their share of this cell is not measured."

	defSelfConcordance = "true / (true + false) over the operator's own grades of the sentinel's flags in the window, unclear excluded; the operator agreeing with the tool they run, not precision."
)

var definitions = map[string]string{
	"tool_calls.count":             "Distinct tool_use ids in the window, over all transcript files; forked and resumed sessions are de-duplicated by id. An upper bound on attempted calls.",
	"unguarded.count":              "Tool calls in the transcripts (in the window, at or after the register's first entry) with no decision or error entry in the register and no line in its fallback journal: the hook never judged them (a session run with hooks disabled, the hook removed, stopped or replaced). sessions is how many sessions they came from. An upper bound: a call Claude Code refused before any hook ran counts too.",
	"stops.total":                  "Calls stopped in the window by the classifier, permission rules, no-human modes, the sentinel, other hooks and the user. CI gates are counted apart.",
	"stops.classifier":             "toolDenialKind automode-*, or the classifier's fixed texts in older files. by_category passes only allow-listed bracketed reasons; others are 'other'.",
	"stops.permission_rules":       "The operator's deny rules, by the class of the denied call (analysed in memory, only the class kept).",
	"stops.no_human_mode":          "Calls the harness rejected because nobody could answer: dontAsk and plan modes, and calls needing approval where no prompt can be shown (-p, headless). Read from permissionDecision where present; a user-rejected in an sdk-cli session is never counted as the human.",
	"stops.sentinel":               "Hook stops (a hook's deny, or its ask the harness rejected with nobody to answer) that the sentinel's register confirms: an ask or deny entry with the same tool_use_id (and session). unanswered_asks are the asks among them. Null without a register.",
	"stops.unconfirmed_marker":     "Hook stops whose reason carries the sentinel's marker but that no register entry confirms: another hook, or another machine's sentinel, printed it.",
	"stops.other_hooks":            "PreToolUse hook stops that neither carry the sentinel's marker nor have a register entry.",
	"human_at_prompt":              noteHumanAtPrompt,
	"series":                       "Stops over time by the day (or ISO week, for periods over 92 days) of each record's own timestamp; undated records are in no point.",
	"period":                       "The days the numbers cover: the window where one is set, else the first and last dated record counted.",
	"stops.user":                   "The human rejecting the permission prompt (or Esc), in main sessions and subagents: toolDenialKind user-rejected without a permissionDecision that says otherwise.",
	"stops.ci":                     "CI gate runs from the --ci file; they act after the push and are not in stops.total.",
	"register.self_concordance":    defSelfConcordance,
	"rates.*":                      "Stops per 100 tool calls: a lower bound, since the call count is an upper bound and some stops are not recognised.",
	"sources.unreadable_files":     "Transcript files that could not be opened or read to the end; counted and skipped (what was read before a read error counts).",
	"sources.unreadable_lines":     "Lines that are not JSON objects (corrupt or truncated) or longer than 16 MiB; skipped, never fatal.",
	"sources.orphan_results":       "Error or denial results whose call was not seen; their text is not matched (toolDenialKind still counts).",
	"sources.duplicate_tool_calls": "tool_use records whose id was already seen (copies in forked or resumed sessions).",
}

var limitsAlways = []AssuranceLimit{
	{"tool_calls_upper_bound",
		"The tool-call count is an upper bound: every distinct tool_use id counts, including calls whose result was lost, so every rate per call is a lower bound.",
		"Die Zahl der Werkzeugaufrufe ist eine Obergrenze: jede eindeutige tool_use-ID zählt, auch Aufrufe ohne Ergebnis, daher ist jede Rate pro Aufruf eine Untergrenze."},
	{"transcripts_local",
		"Only transcripts present on this machine in the given directories are read; deleted, rotated or other machines' sessions are not counted.",
		"Gelesen werden nur die Transkripte in den angegebenen Verzeichnissen dieses Rechners; gelöschte, rotierte oder fremde Sitzungen fehlen."},
	{"transcripts_unsealed",
		"Transcripts are written by the harness, not the agent, but they are not sealed: whoever controls the machine could edit them. The register is the sealed record.",
		"Transkripte schreibt die Laufzeitumgebung, nicht der Agent, aber sie sind nicht versiegelt: wer den Rechner kontrolliert, könnte sie ändern. Versiegelt ist das Register."},
	{"text_recognition",
		"Files older than toolDenialKind are read by fixed denial texts; a hook's own reason in such files looks like a tool error and is not counted, and texts of versions this build does not know are missed.",
		"Dateien ohne toolDenialKind werden über feste Ablehnungstexte gelesen; der eigene Grund eines Hooks sieht dort wie ein Werkzeugfehler aus und wird nicht gezählt, unbekannte Texte neuer Versionen fehlen."},
	{"marker_needs_register",
		"The sentinel's marker is fixed text that any hook can print: a stop counts as the sentinel's only when the operator's register holds its ask or deny for the same call; the rest are counted apart as unconfirmed.",
		"Die Kennung des Sentinels ist fester Text, den jeder Hook ausgeben kann: ein Stopp zählt nur dann für den Sentinel, wenn das Register des Betreibers dessen Rückfrage oder Ablehnung für denselben Aufruf enthält; der Rest wird getrennt als unbestätigt gezählt."},
	{"mcp_not_matched",
		"Results of MCP tools are never matched as text, because the tool writes them; an MCP call stopped without toolDenialKind is not counted.",
		"Ergebnisse von MCP-Werkzeugen werden nie als Text abgeglichen, weil das Werkzeug sie selbst schreibt; ohne toolDenialKind wird ein solcher Stopp nicht gezählt."},
	{"human_in_conversation",
		"The human's oversight in conversation leaves no record; the human cell is null, not zero, and only prompt rejections are counted.",
		"Die Aufsicht des Menschen im Gespräch hinterlässt keine Spur; das Feld bleibt leer (null), nicht 0, gezählt werden nur abgelehnte Rückfragen."},
	{"self_concordance_not_precision",
		"Self-concordance is the operator grading the tool they run; it is not precision and says nothing about what the sentinel missed.",
		"Selbstübereinstimmung ist die Bewertung des Betreibers über sein eigenes Werkzeug; sie ist keine Präzision und sagt nichts über Übersehenes."},
	{"stops_not_harm",
		"A stop is not a prevented harm: a stopped call may have been harmless, and an agent may reach the same effect another way.",
		"Ein Stopp ist kein verhinderter Schaden: der Aufruf kann harmlos gewesen sein, und der Agent kann dasselbe auf anderem Weg erreichen."},
	{"classes_coarse",
		"Classes and categories come from fixed lists; a call or reason outside them is counted as 'other', never named.",
		"Klassen und Kategorien stammen aus festen Listen; was nicht hineinpasst, zählt als 'other' und wird nie benannt."},
}

// finish fills rates, not_measured, assurance limits and definitions.
func finish(r *Report, o *Options) {
	st := &r.Stops
	r.Rates = map[string]Rate{}
	per100 := func(n ...*int64) Rate {
		rt := Rate{Bound: "lower", Basis: "per 100 tool calls (upper bound)"}
		calls := r.ToolCalls.Count
		if calls == nil || *calls == 0 {
			return rt
		}
		var sum int64
		for _, x := range n {
			if x == nil {
				return rt
			}
			sum += *x
		}
		v := round4(100 * float64(sum) / float64(*calls))
		rt.Value = &v
		return rt
	}
	r.Rates["stops_per_100_tool_calls"] = per100(st.Total)
	// The harness's own stops (classifier, rules, no-human modes): the
	// protocol's predictions read this key.
	r.Rates["harness_stops_per_100_tool_calls"] = per100(st.Classifier.Total, st.PermissionRules.Total, st.NoHumanMode.Total)
	r.Rates["classifier_per_100_tool_calls"] = per100(st.Classifier.Total)
	r.Rates["permission_rules_per_100_tool_calls"] = per100(st.PermissionRules.Total)
	r.Rates["no_human_mode_per_100_tool_calls"] = per100(st.NoHumanMode.Total)
	r.Rates["sentinel_per_100_tool_calls"] = per100(st.Sentinel.Total)
	r.Rates["unconfirmed_marker_per_100_tool_calls"] = per100(st.UnconfirmedMarker.Total)
	r.Rates["other_hooks_per_100_tool_calls"] = per100(st.OtherHooks.Total)
	r.Rates["user_per_100_tool_calls"] = per100(st.User.Total)

	nm := []NotMeasured{{"stops.human", reasonHuman}}
	if r.Sources.Transcripts != "read" {
		why := o.NoTranscripts
		if why == "" {
			why = reasonNoTranscripts
		}
		for _, k := range transcriptCells {
			nm = append(nm, NotMeasured{k, why})
		}
	} else {
		if r.ToolCalls.Count != nil && *r.ToolCalls.Count == 0 {
			nm = append(nm, NotMeasured{"rates", "No tool calls in the window: no rate can be given."})
		}
		switch cx := r.Sources.CodexFiles; {
		case cx > 0 && cx == r.Sources.TranscriptFiles:
			for _, k := range codexCells {
				nm = append(nm, NotMeasured{k, reasonCodexOnly})
			}
		case cx > 0:
			for _, k := range codexCells {
				nm = append(nm, NotMeasured{k + ".codex", reasonCodexMixed})
			}
			fallthrough
		default:
			if r.HumanAtPrompt.Approved == nil {
				nm = append(nm, NotMeasured{"human_at_prompt.approved", reasonNoApprovals})
			}
		}
	}
	if st.CI == nil {
		nm = append(nm, NotMeasured{"stops.ci", "No CI file was given (--ci): CI gates are not measured."})
	}
	if r.Register == nil {
		nm = append(nm,
			NotMeasured{"register", "No register was found: the sentinel's own decisions, grades and the cross-check are not measured."},
			NotMeasured{"stops.sentinel", "No register to confirm the sentinel's stops: a marker alone can be printed by anyone, so marker stops are counted in stops.unconfirmed_marker."},
			NotMeasured{"outcomes", noteOutcomes},
			NotMeasured{"unguarded.count", "No register: the transcripts' tool calls cannot be joined with the hook's decisions, so calls run without the hook cannot be told apart."})
	} else if r.Register.SelfConcordance.Value == nil {
		nm = append(nm, NotMeasured{"register.self_concordance", "No true or false grades of flags in the window."})
	}
	r.NotMeasured = nm
	r.AssuranceLimits = append([]AssuranceLimit(nil), limitsAlways...)
	r.Definitions = definitions
}

// codexCells are the harness's own columns, which Codex rollouts do not
// record (transcript/codex.go).
var codexCells = []string{"stops.classifier", "stops.permission_rules", "stops.no_human_mode", "stops.user", "human_at_prompt"}

// transcriptCells are null when no transcript was read.
var transcriptCells = []string{"tool_calls.count", "unguarded.count", "stops.total", "stops.classifier", "stops.permission_rules",
	"stops.no_human_mode", "stops.sentinel", "stops.unconfirmed_marker", "stops.other_hooks", "stops.user",
	"human_at_prompt", "rates"}

func round4(v float64) float64 {
	return float64(int64(v*10000+0.5)) / 10000
}
