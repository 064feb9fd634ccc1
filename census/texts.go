package census

// Fixed sentences of stops.json. They name what the numbers cannot show.

const (
	reasonHuman = "Oversight that steers the agent in conversation, before any tool call, leaves no record in transcripts or the register; only prompt rejections are counted (stops.user)."

	noteOutcomes = "What happened after the sentinel's asks and denies in the window, joined by tool_use_id: approved and breached need the register's outcome entries (PostToolUse), declined the user's rejections in the transcripts; a cell without its evidence is null."

	defSelfConcordance = "true / (true + false) over the operator's own grades of the sentinel's flags in the window, unclear excluded; the operator agreeing with the tool they run, not precision."
)

var definitions = map[string]string{
	"tool_calls.count":             "Distinct tool_use ids in the window, over all transcript files; forked and resumed sessions are de-duplicated by id. An upper bound on attempted calls.",
	"stops.total":                  "Calls stopped in the window by the classifier, permission rules, no-human modes, the sentinel, other hooks and the user. CI gates are counted apart.",
	"stops.classifier":             "toolDenialKind automode-*, or the classifier's fixed texts in older files. by_category passes only allow-listed bracketed reasons; others are 'other'.",
	"stops.permission_rules":       "The operator's deny rules, by the class of the denied call (analysed in memory, only the class kept).",
	"stops.no_human_mode":          "Calls denied because no human could answer a prompt (don't ask mode, no prompts in the session).",
	"stops.sentinel":               "Results starting with the sentinel's fixed marker, cross-checked against the register by tool_use_id.",
	"stops.other_hooks":            "PreToolUse hooks other than the sentinel (hook errors, denials without reason, and permission-rule denials with a text no rule writes).",
	"stops.user":                   "The user rejecting the permission prompt (or Esc), in main sessions and subagents.",
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
func finish(r *Report) {
	st := &r.Stops
	r.Rates = map[string]Rate{}
	per100 := func(n int64) Rate {
		rt := Rate{Bound: "lower", Basis: "per 100 tool calls (upper bound)"}
		if r.ToolCalls.Count > 0 {
			v := round4(100 * float64(n) / float64(r.ToolCalls.Count))
			rt.Value = &v
		}
		return rt
	}
	r.Rates["stops_per_100_tool_calls"] = per100(st.Total)
	// The harness's own stops (classifier, rules, no-human modes): the
	// protocol's predictions read this key.
	r.Rates["harness_stops_per_100_tool_calls"] = per100(st.Classifier.Total + st.PermissionRules.Total + st.NoHumanMode.Total)
	r.Rates["classifier_per_100_tool_calls"] = per100(st.Classifier.Total)
	r.Rates["permission_rules_per_100_tool_calls"] = per100(st.PermissionRules.Total)
	r.Rates["no_human_mode_per_100_tool_calls"] = per100(st.NoHumanMode.Total)
	r.Rates["sentinel_per_100_tool_calls"] = per100(st.Sentinel.Total)
	r.Rates["other_hooks_per_100_tool_calls"] = per100(st.OtherHooks.Total)
	r.Rates["user_per_100_tool_calls"] = per100(st.User.Total)

	nm := []NotMeasured{{"stops.human", reasonHuman}}
	if r.ToolCalls.Count == 0 {
		nm = append(nm, NotMeasured{"rates", "No tool calls in the window: no rate can be given."})
	}
	if st.CI == nil {
		nm = append(nm, NotMeasured{"stops.ci", "No CI file was given (--ci): CI gates are not measured."})
	}
	if r.Register == nil {
		nm = append(nm,
			NotMeasured{"register", "No register was found: the sentinel's own decisions, grades and the cross-check are not measured."},
			NotMeasured{"stops.sentinel.register_matched", "No register to cross-check the sentinel's stops against."})
	} else if r.Register.SelfConcordance.Value == nil {
		nm = append(nm, NotMeasured{"register.self_concordance", "No true or false grades of flags in the window."})
	}
	switch o := &r.Outcomes; {
	case o.Source == nil:
		nm = append(nm, NotMeasured{"outcomes", noteOutcomes})
	case o.Denies.Held == nil:
		nm = append(nm, NotMeasured{"outcomes.denies", "The register holds no outcome entries (the PostToolUse path is not installed): whether a call ran cannot be seen, so approved, unknown, held and breached are null."})
	case o.Asks.Declined == nil:
		nm = append(nm, NotMeasured{"outcomes.asks.declined", "No transcripts were read: the user's rejections of asks cannot be seen."})
	}
	r.NotMeasured = nm
	r.AssuranceLimits = append([]AssuranceLimit(nil), limitsAlways...)
	r.Definitions = definitions
}

func round4(v float64) float64 {
	return float64(int64(v*10000+0.5)) / 10000
}
