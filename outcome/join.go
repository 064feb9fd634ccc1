package outcome

import (
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// Result is one decision joined to what happened.
type Result struct {
	Seq       int64     `json:"seq"`
	Time      time.Time `json:"time"`
	Tool      string    `json:"tool"`
	ToolUseID string    `json:"tool_use_id"`
	Decision  string    `json:"decision"`
	Attended  bool      `json:"attended"`
	Rules     []string  `json:"rules"`
	Status    string    `json:"outcome"`
	Reason    string    `json:"reason,omitempty"`
	// OutcomeSeq is the outcome entry that shows the call ran (0: none).
	OutcomeSeq int64 `json:"outcome_seq,omitempty"`
}

// Summary counts the join, for `sentinel outcomes` and the census.
type Summary struct {
	Decisions int `json:"decisions"`
	Asks      struct {
		Presented int `json:"presented"`
		Approved  int `json:"approved"`
		Declined  int `json:"declined"`
		Unknown   int `json:"unknown"`
	} `json:"asks"`
	Denies struct {
		Held     int `json:"held"`
		Breached int `json:"breached"`
	} `json:"denies"`
	Allows struct {
		Ran    int `json:"ran"`
		NotRun int `json:"not_run"`
	} `json:"allows"`
	// OutcomeEntries counts PostToolUse entries; Orphans those whose
	// tool_use_id matches no decision (the hook was added mid-session, or
	// the decision went to the journal and is not merged yet).
	OutcomeEntries int `json:"outcome_entries"`
	Orphans        int `json:"orphan_outcomes"`
	// TranscriptsRead is the number of transcript files searched for
	// rejections; 0 means declined could not be seen at all.
	TranscriptsRead int `json:"transcripts_read"`
}

// Breach is a deny the harness did not obey: the call ran anyway.
type Breach struct {
	Seq        int64     `json:"seq"`
	Time       time.Time `json:"time"`
	Tool       string    `json:"tool"`
	ToolUseID  string    `json:"tool_use_id"`
	Rules      []string  `json:"rules"`
	OutcomeSeq int64     `json:"outcome_seq"`
}

// Join streams the register (each, in sequence order) and joins every
// decision to its outcome. rejections may be nil (no transcripts read).
func Join(each func(func(register.Entry) error) error, rejections *Rejections) ([]Result, *Summary, error) {
	var results []Result
	byID := map[string]int{} // tool_use_id -> index of the latest decision
	ran := map[string]int64{}
	sum := &Summary{}
	err := each(func(e register.Entry) error {
		switch {
		case e.Kind == register.KindOutcome:
			sum.OutcomeEntries++
			if _, dup := ran[e.ToolUseID]; e.ToolUseID != "" && !dup {
				ran[e.ToolUseID] = e.Seq
			}
		case (e.Kind == register.KindDecision || e.Kind == register.KindError) && e.Decision != "":
			rules := e.Rules
			if rules == nil {
				rules = []string{}
			}
			results = append(results, Result{Seq: e.Seq, Time: e.Time, Tool: e.Tool, ToolUseID: e.ToolUseID,
				Decision: e.Decision, Attended: e.Attended, Rules: rules})
			if e.ToolUseID != "" {
				byID[e.ToolUseID] = len(results) - 1
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var declined map[string]bool
	if rejections != nil {
		declined = rejections.IDs
		sum.TranscriptsRead = rejections.Files
	}
	for id := range ran {
		if _, ok := byID[id]; !ok {
			sum.Orphans++
		}
	}
	for i := range results {
		r := &results[i]
		oseq, didRun := ran[r.ToolUseID]
		hasID := r.ToolUseID != ""
		r.Status, r.Reason = Classify(r.Decision, hasID, didRun, hasID && declined[r.ToolUseID])
		if didRun && hasID {
			r.OutcomeSeq = oseq
		}
		if r.Status == Unknown && rejections == nil && hasID {
			r.Reason = "no outcome entry, and no transcripts were read"
		}
		sum.add(r.Status)
	}
	sum.Decisions = len(results)
	return results, sum, nil
}

func (s *Summary) add(status string) {
	switch status {
	case Approved:
		s.Asks.Approved++
	case Declined:
		s.Asks.Declined++
	case Unknown:
		s.Asks.Unknown++
	case Held:
		s.Denies.Held++
	case Breached:
		s.Denies.Breached++
	case Ran:
		s.Allows.Ran++
	case NotRun:
		s.Allows.NotRun++
	}
	s.Asks.Presented = s.Asks.Approved + s.Asks.Declined + s.Asks.Unknown
}

// BreachesFrom lists the denies that ran anyway.
func BreachesFrom(each func(func(register.Entry) error) error) ([]Breach, error) {
	results, _, err := Join(each, nil)
	if err != nil {
		return nil, err
	}
	var out []Breach
	for _, r := range results {
		if r.Status == Breached {
			out = append(out, Breach{Seq: r.Seq, Time: r.Time, Tool: r.Tool, ToolUseID: r.ToolUseID, Rules: r.Rules, OutcomeSeq: r.OutcomeSeq})
		}
	}
	return out, nil
}

// Entries adapts an open register to the streaming form Join, Summarize
// and protocol.Replay take (a copy of each entry, in sequence order).
func Entries(r *register.Register) func(func(register.Entry) error) error {
	return func(fn func(register.Entry) error) error {
		return r.Each(1, func(e *register.Entry) error { return fn(*e) })
	}
}

// Breaches lists the denies of an open register that ran anyway, for
// `sentinel doctor` and `sentinel verify` (a finding, not a broken chain).
func Breaches(r *register.Register) ([]Breach, error) { return BreachesFrom(Entries(r)) }

// Summarize counts the join for the census; rejections may be nil.
func Summarize(each func(func(register.Entry) error) error, rejections *Rejections) (*Summary, error) {
	_, sum, err := Join(each, rejections)
	return sum, err
}
