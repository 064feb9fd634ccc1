package census

// SchemaVersion is the version of the stops.json shape. Keys are stable:
// the protocol reads them for its predictions. Add keys, never rename.
const SchemaVersion = "1"

// Report is stops.json. A nil pointer is printed as null: not measured,
// never 0.
type Report struct {
	SchemaVersion   string            `json:"schema_version"`
	GeneratedAt     string            `json:"generated_at"`
	Generator       string            `json:"generator"`
	Window          Window            `json:"window"`
	Sources         Sources           `json:"sources"`
	ToolCalls       ToolCalls         `json:"tool_calls"`
	Stops           Stops             `json:"stops"`
	Register        *RegisterCounts   `json:"register"`
	Outcomes        Outcomes          `json:"outcomes"`
	Rates           map[string]Rate   `json:"rates"`
	NotMeasured     []NotMeasured     `json:"not_measured"`
	AssuranceLimits []AssuranceLimit  `json:"assurance_limits"`
	Definitions     map[string]string `json:"definitions"`
}

// Window bounds the records counted, on their own timestamps; null is open.
type Window struct {
	Since *string `json:"since"`
	Until *string `json:"until"`
}

// Sources says what was read.
type Sources struct {
	TranscriptDirs     int    `json:"transcript_dirs"`
	TranscriptFiles    int    `json:"transcript_files"`
	SubagentFiles      int    `json:"subagent_files"`
	Records            int64  `json:"records"`
	UnreadableFiles    int64  `json:"unreadable_files"`
	UnreadableLines    int64  `json:"unreadable_lines"`
	OversizedLines     int64  `json:"oversized_lines"`
	OutsideWindow      int64  `json:"records_outside_window"`
	UndatedRecords     int64  `json:"undated_records"`
	DuplicateToolCalls int64  `json:"duplicate_tool_calls"`
	OrphanResults      int64  `json:"orphan_results"`
	Aborts             int64  `json:"aborts"`
	UnknownDenialKinds int64  `json:"unknown_denial_kinds"`
	Register           string `json:"register"` // "present" or "absent"
	CI                 string `json:"ci"`       // "present" or "absent"
}

// ToolCalls counts distinct tool_use ids: an upper bound on the calls that
// were attempted (a call whose result was lost still counts).
type ToolCalls struct {
	Count int64  `json:"count"`
	Bound string `json:"bound"` // "upper"
}

// Stops counts the stops by who stopped the call.
type Stops struct {
	Total           int64           `json:"total"`
	Classifier      ClassifierStops `json:"classifier"`
	PermissionRules RuleStops       `json:"permission_rules"`
	NoHumanMode     Count           `json:"no_human_mode"`
	Sentinel        SentinelStops   `json:"sentinel"`
	OtherHooks      Count           `json:"other_hooks"`
	User            Count           `json:"user"`
	CI              *CIStops        `json:"ci"`
	Human           NullCell        `json:"human"`
}

// Count is a plain total.
type Count struct {
	Total int64 `json:"total"`
}

// ClassifierStops are the auto-mode classifier's stops.
type ClassifierStops struct {
	Total      int64            `json:"total"`
	ByKind     map[string]int64 `json:"by_kind"`
	ByCategory map[string]int64 `json:"by_category"`
}

// RuleStops are the operator's permission-rule stops by class of call.
type RuleStops struct {
	Total   int64            `json:"total"`
	ByClass map[string]int64 `json:"by_class"`
}

// SentinelStops are the sentinel's stops seen in transcripts (by marker),
// cross-checked against the register by tool_use_id (null without one).
type SentinelStops struct {
	Total             int64  `json:"total"`
	RegisterMatched   *int64 `json:"register_matched"`
	RegisterUnmatched *int64 `json:"register_unmatched"`
}

// CIStops count CI gate runs from the --ci file. They act after the push,
// so they are counted apart and not in stops.total.
type CIStops struct {
	Runs   int64 `json:"runs"`
	Failed int64 `json:"failed"`
}

// NullCell is a cell that is not measured, with the reason.
type NullCell struct {
	Value  *int64 `json:"value"`
	Reason string `json:"reason"`
}

// RegisterCounts are read from the operator's register.
type RegisterCounts struct {
	Decisions       int64                  `json:"decisions"`
	Allow           int64                  `json:"allow"`
	Ask             Attendance             `json:"ask"`
	Deny            Attendance             `json:"deny"`
	Errors          int64                  `json:"errors"`
	ByClass         map[string]*ClassFlags `json:"by_class"`
	Grades          *Grades                `json:"grades"`
	SelfConcordance SelfConcordance        `json:"self_concordance"`
}

// ClassFlags are the asks and denies of one rule class, each split by
// whether a human could answer.
type ClassFlags struct {
	Ask  Attendance `json:"ask"`
	Deny Attendance `json:"deny"`
}

// Attendance splits decisions by whether a human could answer.
type Attendance struct {
	Attended   int64 `json:"attended"`
	Unattended int64 `json:"unattended"`
}

func (a *Attendance) add(attended bool) {
	if attended {
		a.Attended++
	} else {
		a.Unattended++
	}
}

// Grades are the operator's grades of flags (latest grade per flag wins).
type Grades struct {
	True    int64 `json:"true"`
	False   int64 `json:"false"`
	Unclear int64 `json:"unclear"`
}

// SelfConcordance = true / (true + false), unclear excluded. It is the
// operator agreeing with the tool they run, not precision.
type SelfConcordance struct {
	Value      *float64 `json:"value"`
	Definition string   `json:"definition"`
}

// Outcomes are what happened after the sentinel's asks and denies
// (issue 7). Every cell is null until an outcome join measures it.
type Outcomes struct {
	Source *string `json:"source"` // null when not measured
	Asks   AskOut  `json:"asks"`
	Denies DenyOut `json:"denies"`
	Note   string  `json:"note"`
}

// AskOut: asks presented to a human and what the human did.
type AskOut struct {
	Presented *int64 `json:"presented"`
	Approved  *int64 `json:"approved"`
	Declined  *int64 `json:"declined"`
	Unknown   *int64 `json:"unknown"`
}

// DenyOut: denies that held, and denies the agent got around.
type DenyOut struct {
	Held     *int64 `json:"held"`
	Breached *int64 `json:"breached"`
}

// Rate is a ratio printed with what bounds it.
type Rate struct {
	Value *float64 `json:"value"`
	Bound string   `json:"bound"` // "lower"
	Basis string   `json:"basis"`
}

// NotMeasured names a number the census cannot give, and why.
type NotMeasured struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// AssuranceLimit is what the numbers cannot show, in English and German.
type AssuranceLimit struct {
	Key string `json:"key"`
	EN  string `json:"en"`
	DE  string `json:"de"`
}
