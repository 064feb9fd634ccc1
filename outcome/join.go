package outcome

import (
	"time"

	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/transcript"
)

// Outcome labels: PostToolUse records "ran", PostToolUseFailure "failed"
// (the call ran and failed; register.LabelRanFailed). Both mean the call ran.
const (
	LabelRan    = register.LabelRan
	LabelFailed = register.LabelRanFailed
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
	// Failed: the call ran and failed (PostToolUseFailure).
	Failed bool `json:"failed,omitempty"`
}

// Summary counts the join. Its cells are read through Cells, which says
// null where the evidence is missing; the counts here are raw.
type Summary struct {
	Decisions int `json:"decisions"`
	Asks      struct {
		Presented  int `json:"presented"` // approved + declined + unknown: asks a human could see
		Approved   int `json:"approved"`
		Declined   int `json:"declined"`
		Unanswered int `json:"unanswered"` // rejected with nobody to answer; not presented
		Unknown    int `json:"unknown"`
	} `json:"asks"`
	Denies struct {
		Held     int `json:"held"`
		Breached int `json:"breached"`
	} `json:"denies"`
	Allows struct {
		Ran    int `json:"ran"`
		NotRun int `json:"not_run"`
	} `json:"allows"`
	// OutcomeEntries counts PostToolUse and PostToolUseFailure entries
	// (FailedEntries the latter); Orphans those whose tool_use_id matches
	// no decision (the hook was added mid-session, or the decision went to
	// the journal and is not merged yet).
	OutcomeEntries int `json:"outcome_entries"`
	FailedEntries  int `json:"failed_entries"`
	Orphans        int `json:"orphan_outcomes"`
	// TranscriptsRead is the number of transcript files read; 0 means the
	// answers at the prompt could not be seen at all. Structured counts
	// results with the harness's permissionDecision record.
	TranscriptsRead int   `json:"transcripts_read"`
	Structured      int64 `json:"structured_results"`
	// Unguarded counts the transcripts' tool calls the hook never judged
	// (unguarded.go); set by the caller that joined them, meaningful only
	// when transcripts were read.
	Unguarded int `json:"unguarded"`
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

// Options say which decisions the join keeps.
type Options struct {
	// All keeps allows as Results too; otherwise only asks and denies are
	// kept (allows are still counted, by a 16-byte key each).
	All bool
	// Since (inclusive) and Until (exclusive) bound the decisions joined
	// by their time; outcome entries are read whatever their time.
	Since, Until time.Time
	// NoResults keeps no Result at all (the census needs only the counts):
	// memory then grows with the flags and allows, by a key each.
	NoResults bool
}

// joined is a decision waiting for its outcome.
type joined struct {
	idx      int // index in results, -1 when not kept
	decision string
	outSeq   int64
	failed   bool
}

// JoinWith streams the register (each, in sequence order) and joins the
// decisions o selects to their outcomes; answers may be nil (no
// transcripts read). Memory holds the kept Results and a small record per
// decision with a tool_use_id, never whole entries.
func JoinWith(each func(func(register.Entry) error) error, answers *Answers, o Options) ([]Result, *Summary, error) {
	var results []Result
	byID := map[transcript.Key]*joined{}
	early := map[transcript.Key]joined{} // outcomes seen before any decision with their id
	var noID []joined                    // decisions without a tool_use_id
	sum := &Summary{}
	err := each(func(e register.Entry) error {
		switch {
		case e.Kind == register.KindOutcome:
			sum.OutcomeEntries++
			failed := e.Label == LabelFailed
			if failed {
				sum.FailedEntries++
			}
			if e.ToolUseID == "" {
				sum.Orphans++
				return nil
			}
			k := transcript.KeyOf(e.ToolUseID)
			if j := byID[k]; j != nil {
				if j.outSeq == 0 {
					j.outSeq, j.failed = e.Seq, failed
				}
			} else if _, dup := early[k]; !dup {
				early[k] = joined{outSeq: e.Seq, failed: failed}
			}
		case (e.Kind == register.KindDecision || e.Kind == register.KindError) && e.Decision != "":
			if !timeIn(e.Time, o.Since, o.Until) {
				return nil
			}
			j := &joined{idx: -1, decision: e.Decision}
			if !o.NoResults && (o.All || e.Decision != "allow") {
				// A copy, never nil: no rules is [] in JSON, not null.
				results = append(results, Result{Seq: e.Seq, Time: e.Time, Tool: e.Tool, ToolUseID: e.ToolUseID,
					Decision: e.Decision, Attended: e.Attended, Rules: append([]string{}, e.Rules...)})
				j.idx = len(results) - 1
			}
			if e.ToolUseID == "" {
				noID = append(noID, *j)
				return nil
			}
			k := transcript.KeyOf(e.ToolUseID)
			if ej, ok := early[k]; ok {
				j.outSeq, j.failed = ej.outSeq, ej.failed
				delete(early, k)
			}
			if old := byID[k]; old != nil {
				// The same id decided again (a journal merge): the latest wins,
				// the earlier one keeps its outcome.
				sum.add(classifyJoined(old, answers.ofKey(k), results))
			}
			byID[k] = j
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sum.Orphans += len(early)
	if answers != nil {
		sum.TranscriptsRead = answers.Files
		sum.Structured = answers.Structured
	}
	for k, j := range byID {
		sum.add(classifyJoined(j, answers.ofKey(k), results))
	}
	for i := range noID {
		sum.add(classifyNoID(&noID[i], results))
	}
	sum.Decisions = sum.Asks.Presented + sum.Asks.Unanswered + sum.Denies.Held + sum.Denies.Breached + sum.Allows.Ran + sum.Allows.NotRun
	if answers == nil {
		for i := range results {
			if r := &results[i]; r.Status == Unknown && r.ToolUseID != "" {
				r.Reason = "no outcome entry, and no transcripts were read"
			}
		}
	}
	return results, sum, nil
}

// Join keeps every decision (allows included); see JoinWith.
func Join(each func(func(register.Entry) error) error, answers *Answers) ([]Result, *Summary, error) {
	return JoinWith(each, answers, Options{All: true})
}

func classifyJoined(j *joined, answer string, results []Result) string {
	status, reason := Classify(j.decision, true, j.outSeq != 0, answer)
	if j.idx >= 0 {
		r := &results[j.idx]
		r.Status, r.Reason = status, reason
		r.OutcomeSeq, r.Failed = j.outSeq, j.failed
	}
	return status
}

func classifyNoID(j *joined, results []Result) string {
	status, reason := Classify(j.decision, false, false, "")
	if j.idx >= 0 {
		results[j.idx].Status, results[j.idx].Reason = status, reason
	}
	return status
}

func timeIn(t, since, until time.Time) bool {
	return (since.IsZero() || !t.Before(since)) && (until.IsZero() || t.Before(until))
}

func (s *Summary) add(status string) {
	switch status {
	case Approved:
		s.Asks.Approved++
	case Declined:
		s.Asks.Declined++
	case Unanswered:
		s.Asks.Unanswered++
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
	results, _, err := JoinWith(each, nil, Options{})
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

// Summarize counts the join of the asks and denies in [since, until) for
// the census; answers may be nil. It reads the register twice, first for the
// flags, then for their outcomes, so that memory holds a key per flag and
// nothing per allow or outcome entry: constant in the register's size for a
// given number of flags. Allows are not counted (the census does not
// publish them); an outcome written before its decision is still joined.
func Summarize(each func(func(register.Entry) error) error, answers *Answers, since, until time.Time) (*Summary, error) {
	flags := map[transcript.Key]*joined{}
	sum := &Summary{}
	var noID []joined
	err := each(func(e register.Entry) error {
		if (e.Kind != register.KindDecision && e.Kind != register.KindError) || (e.Decision != "ask" && e.Decision != "deny") ||
			!timeIn(e.Time, since, until) {
			return nil
		}
		j := joined{idx: -1, decision: e.Decision}
		if e.ToolUseID == "" {
			noID = append(noID, j)
			return nil
		}
		k := transcript.KeyOf(e.ToolUseID)
		if old := flags[k]; old != nil {
			sum.add(classifyJoined(old, answers.ofKey(k), nil)) // decided again: both count
		}
		flags[k] = &j
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = each(func(e register.Entry) error {
		if e.Kind != register.KindOutcome {
			return nil
		}
		sum.OutcomeEntries++
		if e.Label == LabelFailed {
			sum.FailedEntries++
		}
		if e.ToolUseID == "" {
			return nil
		}
		if j := flags[transcript.KeyOf(e.ToolUseID)]; j != nil && j.outSeq == 0 {
			j.outSeq, j.failed = e.Seq, e.Label == LabelFailed
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if answers != nil {
		sum.TranscriptsRead = answers.Files
		sum.Structured = answers.Structured
	}
	for k, j := range flags {
		sum.add(classifyJoined(j, answers.ofKey(k), nil))
	}
	for i := range noID {
		sum.add(classifyNoID(&noID[i], nil))
	}
	sum.Decisions = sum.Asks.Presented + sum.Asks.Unanswered + sum.Denies.Held + sum.Denies.Breached
	return sum, nil
}

// JoinRegister is JoinWith done by SQLite over an open register
// (register.JoinOutcomes, register.OutcomeCounts): the same Results and
// Summary, but each Result goes to fn, in sequence order, as soon as it is
// known, and nothing is held between them, so that memory does not grow
// with the register. fn must not keep the Result's address.
func JoinRegister(r *register.Register, answers *Answers, o Options, fn func(*Result) error) (*Summary, error) {
	sum := &Summary{}
	w := register.TimeWindow{Since: o.Since, Until: o.Until}
	err := r.JoinOutcomes(w, func(j *register.Joined) error {
		status, reason := Of(j.Decision, j.ToolUseID, j.OutcomeSeq != 0, answers)
		sum.add(status)
		if o.NoResults || (!o.All && j.Decision == "allow") {
			return nil
		}
		res := Result{Seq: j.Seq, Time: j.Time, Tool: j.Tool, ToolUseID: j.ToolUseID, Decision: j.Decision,
			Attended: j.Attended, Rules: j.Rules, Status: status, Reason: reason, OutcomeSeq: j.OutcomeSeq, Failed: j.Failed}
		return fn(&res)
	})
	if err != nil {
		return nil, err
	}
	if err := outcomeCounts(r, w, sum, true); err != nil {
		return nil, err
	}
	sum.fromAnswers(answers)
	sum.Decisions = sum.Asks.Presented + sum.Asks.Unanswered + sum.Denies.Held + sum.Denies.Breached + sum.Allows.Ran + sum.Allows.NotRun
	return sum, nil
}

// SummarizeRegister is Summarize done by SQLite over an open register
// (register.JoinFlagOutcomes): the same Summary in constant memory.
func SummarizeRegister(r *register.Register, answers *Answers, since, until time.Time) (*Summary, error) {
	sum := &Summary{}
	w := register.TimeWindow{Since: since, Until: until}
	err := r.JoinFlagOutcomes(w, func(j *register.Joined) error {
		status, _ := Of(j.Decision, j.ToolUseID, j.OutcomeSeq != 0, answers)
		sum.add(status)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := outcomeCounts(r, w, sum, false); err != nil {
		return nil, err
	}
	sum.fromAnswers(answers)
	sum.Decisions = sum.Asks.Presented + sum.Asks.Unanswered + sum.Denies.Held + sum.Denies.Breached
	return sum, nil
}

func outcomeCounts(r *register.Register, w register.TimeWindow, sum *Summary, orphans bool) error {
	total, failed, orph, err := r.OutcomeCounts(w)
	if err != nil {
		return err
	}
	sum.OutcomeEntries, sum.FailedEntries = int(total), int(failed)
	if orphans {
		sum.Orphans = int(orph)
	}
	return nil
}

func (s *Summary) fromAnswers(a *Answers) {
	if a != nil {
		s.TranscriptsRead = a.Files
		s.Structured = a.Structured
	}
}
