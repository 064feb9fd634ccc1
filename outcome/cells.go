package outcome

// Cells are the join's numbers as they may be published: a count where its
// evidence was read, null (nil) with the reason where it was not. The census
// and `sentinel outcomes` both print these, so they cannot disagree.
type Cells struct {
	Asks struct {
		Total     *int64 `json:"total"`     // every ask in the register (always measured)
		Presented *int64 `json:"presented"` // asks a human could see: total - unanswered

		Approved   *int64 `json:"approved"`
		Declined   *int64 `json:"declined"`
		Unanswered *int64 `json:"unanswered"`
		Unknown    *int64 `json:"unknown"`
	} `json:"asks"`
	Denies struct {
		Held     *int64 `json:"held"`
		Breached *int64 `json:"breached"`
	} `json:"denies"`
	Allows struct {
		Ran    *int64 `json:"ran"`
		NotRun *int64 `json:"not_run"`
	} `json:"allows"`
	// Unguarded counts the transcripts' tool calls that have no decision in
	// the register or the journal: run without the hook (null when no
	// transcript was read).
	Unguarded *int64 `json:"unguarded"`
	// NotMeasured names each null cell and why (keys relative to the
	// outcomes object: "denies.held", ...).
	NotMeasured []NotMeasured `json:"not_measured"`
}

// NotMeasured is a null cell and its reason.
type NotMeasured struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// Reasons for null cells.
const (
	ReasonNoOutcomes    = "the register holds no outcome entries (the PostToolUse and PostToolUseFailure hooks are not installed, or no call ran since): whether a call ran cannot be seen"
	ReasonNoTranscripts = "no transcript was read: the harness's record of the human's answers at the prompt cannot be seen"
	ReasonNoApprovals   = "no outcome entries, and no transcript with the harness's permissionDecision records (Claude Code before 2.1.328 writes none): an approval cannot be seen"
	ReasonUnknown       = "unknown is what is left when approvals and rejections can both be seen"
	ReasonNoUnguarded   = "no transcript was read: a tool call the hook never judged (a session run without it) cannot be seen"
)

func cnt(n int) *int64 { v := int64(n); return &v }

// Cells turns the raw counts into publishable cells: approved needs outcome
// entries or the harness's structured records; declined and unanswered need
// transcripts; held, breached, ran and not_run need outcome entries; unknown
// needs approved and declined both. Total comes from the register alone;
// presented (total less unanswered) needs transcripts.
func (s *Summary) Cells() Cells {
	var c Cells
	nm := func(key, reason string) { c.NotMeasured = append(c.NotMeasured, NotMeasured{key, reason}) }
	outcomes := s.OutcomeEntries > 0
	transcripts := s.TranscriptsRead > 0
	c.Asks.Total = cnt(s.Asks.Presented + s.Asks.Unanswered)
	if outcomes || s.Structured > 0 {
		c.Asks.Approved = cnt(s.Asks.Approved)
	} else {
		nm("asks.approved", ReasonNoApprovals)
	}
	if transcripts {
		c.Asks.Presented = cnt(s.Asks.Presented)
		c.Asks.Declined = cnt(s.Asks.Declined)
		c.Asks.Unanswered = cnt(s.Asks.Unanswered)
	} else {
		nm("asks.presented", ReasonNoTranscripts)
		nm("asks.declined", ReasonNoTranscripts)
		nm("asks.unanswered", ReasonNoTranscripts)
	}
	if c.Asks.Approved != nil && c.Asks.Declined != nil {
		c.Asks.Unknown = cnt(s.Asks.Unknown)
	} else {
		nm("asks.unknown", ReasonUnknown)
	}
	if transcripts {
		c.Unguarded = cnt(s.Unguarded)
	} else {
		nm("unguarded", ReasonNoUnguarded)
	}
	if outcomes {
		c.Denies.Held = cnt(s.Denies.Held)
		c.Denies.Breached = cnt(s.Denies.Breached)
		c.Allows.Ran = cnt(s.Allows.Ran)
		c.Allows.NotRun = cnt(s.Allows.NotRun)
	} else {
		nm("denies.held", ReasonNoOutcomes)
		nm("denies.breached", ReasonNoOutcomes)
		nm("allows", ReasonNoOutcomes)
	}
	return c
}
