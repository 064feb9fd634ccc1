package census

import "github.com/sentinel-guard/sentinel/outcome"

// SchemaVersion is the version of the stops.json shape. Keys are stable:
// the protocol reads them for its predictions. Add keys, never rename.
// Version 2: counts read from transcripts may be null (nothing read), and
// the sentinel's column counts only stops its register confirms.
const SchemaVersion = "2"

// Report is stops.json. A nil pointer is printed as null: not measured,
// never 0.
type Report struct {
	Schema          string            `json:"$schema"`
	SchemaVersion   string            `json:"schema_version"`
	Title           string            `json:"title"`
	GeneratedAt     string            `json:"generated_at"`
	Generator       string            `json:"generator"`
	Window          Window            `json:"window"`
	Period          Period            `json:"period"`
	Verify          Verify            `json:"verify"`
	Sources         Sources           `json:"sources"`
	ToolCalls       ToolCalls         `json:"tool_calls"`
	Unguarded       UnguardedCalls    `json:"unguarded"`
	Stops           Stops             `json:"stops"`
	HumanAtPrompt   HumanAtPrompt     `json:"human_at_prompt"`
	Register        *RegisterCounts   `json:"register"`
	Outcomes        Outcomes          `json:"outcomes"`
	Witness         *WitnessCounts    `json:"witness"` // null without --witness (witness.go)
	Fleet           *Fleet            `json:"fleet"`   // null unless over several sources (fleet.go)
	Series          *Series           `json:"series"`
	Rates           map[string]Rate   `json:"rates"`
	NotMeasured     []NotMeasured     `json:"not_measured"`
	AssuranceLimits []AssuranceLimit  `json:"assurance_limits"`
	Definitions     map[string]string `json:"definitions"`
	// Check is what the page shows to check the file; never in stops.json
	// (which cannot name its own sha256).
	Check *PageCheck `json:"-"`
}

// PageCheck is the page's verification block: the sha256 of the
// stops.json the page shows, its census seal, what the register's
// verification proved, and the exact commands that check it.
type PageCheck struct {
	StopsFile   string
	StopsSHA256 string
	// CensusSeal is the census seal of exactly these bytes; nil when the
	// file was not sealed (--seal).
	CensusSeal *ArtifactSealRef
	// Register is what verifying the register proved before it was read.
	Register string
	Commands []string
}

// ArtifactSealRef is an artifact seal in a Rekor log.
type ArtifactSealRef struct {
	UUID       string
	RekorURL   string
	LogIndex   int64
	Integrated string // RFC 3339
	Statement  string // the exact signed text (its sha256 is what the log holds)
}

// Window bounds the records counted, on their own timestamps; null is open.
type Window struct {
	Since *string `json:"since"`
	Until *string `json:"until"`
}

// Period is the stretch of days the numbers cover, as dates (UTC): the
// window where it is set, else the first and last dated record counted.
type Period struct {
	From  *string `json:"from"`
	To    *string `json:"to"` // inclusive
	Basis string  `json:"basis"`
}

// Verify says how a reader checks this file: the operator's key and the
// register's latest seal in Rekor (null when not known). A stops.json
// sealed with `census --seal` is named by its own sha256 in a statement
// signed with that key.
type Verify struct {
	KeyFingerprint *string  `json:"key_fingerprint"`
	RegisterSeal   *SealRef `json:"register_seal"`
	How            string   `json:"how"`
}

// SealRef is one seal of the register in a Rekor log.
type SealRef struct {
	UUID     string `json:"uuid"`
	RekorURL string `json:"rekor_url"`
	Seq      int64  `json:"seq"`       // the last entry the seal covers
	SealedAt string `json:"sealed_at"` // RFC 3339
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
	SkippedLinks       int64  `json:"skipped_links"`
	SkippedSpecial     int64  `json:"skipped_special_files"`
	StructuredResults  int64  `json:"structured_results"`
	CodexFiles         int    `json:"codex_files"` // of transcript_files, Codex rollouts
	Transcripts        string `json:"transcripts"` // "read" or "none"
	Register           string `json:"register"`    // "present" or "absent"
	CI                 string `json:"ci"`          // "present" or "absent"
}

// ToolCalls counts distinct tool_use ids: an upper bound on the calls that
// were attempted (a call whose result was lost still counts). Null when no
// transcript was read.
type ToolCalls struct {
	Count *int64 `json:"count"`
	Bound string `json:"bound"` // "upper"
}

// UnguardedCalls counts the tool calls in the transcripts that the hook
// never judged (no decision in the register, no journal line: a session run
// without it), at or after the register's first entry (outcome.Unguarded).
// Null when no transcript was read or there is no register.
type UnguardedCalls struct {
	Count    *int64 `json:"count"`
	Sessions *int64 `json:"sessions"`
	Bound    string `json:"bound"` // "upper": a call refused before any hook ran counts too
}

// Stops counts the stops by who stopped the call. Every count read from
// transcripts is null when no transcript was read.
type Stops struct {
	Total             *int64          `json:"total"`
	Classifier        ClassifierStops `json:"classifier"`
	PermissionRules   RuleStops       `json:"permission_rules"`
	NoHumanMode       Count           `json:"no_human_mode"`
	Sentinel          SentinelStops   `json:"sentinel"`
	UnconfirmedMarker Count           `json:"unconfirmed_marker"`
	OtherHooks        Count           `json:"other_hooks"`
	User              Count           `json:"user"`
	CI                *CIStops        `json:"ci"`
	Disagreement      *Disagreement   `json:"sentinel_disagreement"` // witness_pair.go
	Human             NullCell        `json:"human"`
}

// Count is a plain total.
type Count struct {
	Total *int64 `json:"total"`
}

// ClassifierStops are the auto-mode classifier's stops.
type ClassifierStops struct {
	Total      *int64           `json:"total"`
	ByKind     map[string]int64 `json:"by_kind"`
	ByCategory map[string]int64 `json:"by_category"`
}

// RuleStops are the operator's permission-rule stops by class of call.
type RuleStops struct {
	Total   *int64           `json:"total"`
	ByClass map[string]int64 `json:"by_class"`
}

// SentinelStops are the hook stops the sentinel's register confirms (an
// ask or deny entry with the same tool_use_id and session); null without a
// register. UnansweredAsks are the part that were asks the harness rejected
// because nobody could answer. RegisterMatched repeats Total and
// RegisterUnmatched the marker stops without an entry (schema 1 names).
type SentinelStops struct {
	Total             *int64 `json:"total"`
	UnansweredAsks    *int64 `json:"unanswered_asks"`
	RegisterMatched   *int64 `json:"register_matched"`
	RegisterUnmatched *int64 `json:"register_unmatched"`
}

// CIStops count CI gate runs from the --ci file. They act after the push,
// so they are counted apart and not in stops.total.
type CIStops struct {
	Runs   int64 `json:"runs"`
	Failed int64 `json:"failed"`
	// InProgress and NoVerdict are GitHub runs in the window that gave no
	// verdict: still running (empty conclusion), or cancelled, skipped,
	// neutral, stale, waiting. Neither is in runs. Format names the forms
	// read: "jsonl", "github" or "github+jsonl".
	InProgress int64  `json:"in_progress"`
	NoVerdict  int64  `json:"no_verdict"`
	Format     string `json:"format"`
}

// NullCell is a cell that is not measured, with the reason.
type NullCell struct {
	Value  *int64 `json:"value"`
	Reason string `json:"reason"`
}

// HumanAtPrompt is the human's answers at the permission prompt, from the
// harness's own records: declined (the same calls as stops.user) and
// approved (only Claude Code 2.1.328 and later record approvals).
type HumanAtPrompt struct {
	Approved *int64 `json:"approved"`
	Declined *int64 `json:"declined"`
	Note     string `json:"note"`
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
// (outcome.Cells: the same cells `sentinel outcomes` prints).
type Outcomes struct {
	Source *string `json:"source"` // null when not measured
	Asks   AskOut  `json:"asks"`
	Denies DenyOut `json:"denies"`
	Note   string  `json:"note"`
}

// AskOut is the sentinel's asks and what became of them.
type AskOut struct {
	Total      *int64 `json:"total"`
	Presented  *int64 `json:"presented"`
	Approved   *int64 `json:"approved"`
	Declined   *int64 `json:"declined"`
	Unanswered *int64 `json:"unanswered"`
	Unknown    *int64 `json:"unknown"`
}

// DenyOut is the denies that held, and the denies the agent got around.
type DenyOut struct {
	Held     *int64 `json:"held"`
	Breached *int64 `json:"breached"`
}

func outcomesFrom(c outcome.Cells) (AskOut, DenyOut) {
	a := c.Asks
	return AskOut{Total: a.Total, Presented: a.Presented, Approved: a.Approved, Declined: a.Declined,
		Unanswered: a.Unanswered, Unknown: a.Unknown}, DenyOut{Held: c.Denies.Held, Breached: c.Denies.Breached}
}

// Series is stops over time: one point per day, or per ISO week (Monday)
// when the period is longer than SeriesDailyMax days.
type Series struct {
	Bucket  string  `json:"bucket"` // "day" or "week"
	Points  []Point `json:"points"`
	Undated int64   `json:"undated"` // calls and stops without a readable timestamp, in no point
}

// Point is one day or week. Transcript counts are null when no transcript
// was read, the sentinel's and flags when no register was.
type Point struct {
	Start             string `json:"start"` // YYYY-MM-DD
	ToolCalls         *int64 `json:"tool_calls"`
	Stops             *int64 `json:"stops"`
	Classifier        *int64 `json:"classifier"`
	PermissionRules   *int64 `json:"permission_rules"`
	NoHumanMode       *int64 `json:"no_human_mode"`
	Sentinel          *int64 `json:"sentinel"`
	UnconfirmedMarker *int64 `json:"unconfirmed_marker"`
	OtherHooks        *int64 `json:"other_hooks"`
	User              *int64 `json:"user"`
	Flags             *int64 `json:"flags"` // the register's asks and denies
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
