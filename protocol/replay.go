package protocol

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/session"
)

// Redecision is what the running catalog decides for a recorded entry.
type Redecision struct {
	Decision string   // allow, ask, deny
	Rules    []string // rule ids that fired
	Error    string   // the call could not be judged (then ask or deny)
}

// Decider re-decides one decision entry whose Input is present; mem is
// the session's memory as the register held it before the entry (see
// ReplayFrom).
type Decider func(e register.Entry, mem judge.Memory) (Redecision, error)

// Must-keep statuses. Anything but kept fails the gate.
const (
	KeepKept         = "kept"                // still denied
	KeepLost         = "lost"                // no longer denied
	KeepMismatch     = "commitment_mismatch" // the file points at a different entry
	KeepMissing      = "missing"             // no such entry in the register or bundle
	KeepNotReplay    = "not_replayable"      // commitment only: cannot be re-decided
	KeepNotADecision = "not_a_decision"      // the entry is a grade, outcome, ...
)

// KeepResult is one must-keep entry's fate.
type KeepResult struct {
	MustKeep
	Status string   `json:"status"`
	Before string   `json:"before,omitempty"`
	After  string   `json:"after,omitempty"`
	Rules  []string `json:"rules_after,omitempty"`
}

// Change is one entry whose decision changed.
type Change struct {
	Seq         int64    `json:"seq"`
	Tool        string   `json:"tool"`
	Attended    bool     `json:"attended"`
	Before      string   `json:"before"`
	After       string   `json:"after"`
	RulesBefore []string `json:"rules_before"`
	RulesAfter  []string `json:"rules_after"`
	Grade       string   `json:"grade,omitempty"` // latest grade, if any
	// FirstTime is what happened when the entry was recorded (the outcome
	// join: approved, declined, unknown, held, breached, ran, not_run).
	FirstTime string `json:"first_time"`
}

// RuleDelta counts, for one rule, the changed entries it stopped or
// started firing on.
type RuleDelta struct {
	Lost   int `json:"lost"`
	Gained int `json:"gained"`
}

// ReplayReport is the result of Replay. Its JSON is documented in
// docs/protocol.md.
type ReplayReport struct {
	Decisions     int `json:"decisions"`      // decision and error entries seen
	Replayed      int `json:"replayed"`       // re-decided
	NotReplayable int `json:"not_replayable"` // commitment only (input withheld) or withheld entirely
	ReplayErrors  int `json:"replay_errors"`  // re-decided as "could not judge"

	Changed     int                  `json:"changed"`
	ByDirection map[string]int       `json:"by_direction"` // "deny->ask": n
	ByRule      map[string]RuleDelta `json:"by_rule"`
	FlagsBefore int                  `json:"flags_before"` // over replayed entries
	FlagsAfter  int                  `json:"flags_after"`
	FlagsGained int                  `json:"flags_gained"`
	FlagsLost   int                  `json:"flags_lost"`

	GradedTrueLost     []int64 `json:"graded_true_flags_lost"`
	GradedFalseRemoved []int64 `json:"graded_false_flags_removed"`
	// Self-concordance over the replayed, graded entries that are flags
	// before (and after) the replay; null when none is graded true/false.
	SelfConcordanceBefore *float64 `json:"self_concordance_before"`
	SelfConcordanceAfter  *float64 `json:"self_concordance_after"`

	MustKeep []KeepResult `json:"must_keep"`
	// Gate is "held" when every must-keep entry is still denied (or none
	// is listed), "failed" otherwise, whatever the other figures say.
	Gate    string   `json:"gate"`
	Changes []Change `json:"changes"`
}

// GateFailures lists the must-keep entries that failed, for messages.
func (r *ReplayReport) GateFailures() []KeepResult {
	var out []KeepResult
	for _, k := range r.MustKeep {
		if k.Status != KeepKept {
			out = append(out, k)
		}
	}
	return out
}

// Source is what Replay reads.
type Source struct {
	// Each streams every entry in sequence order (a register or a bundle);
	// Replay may call it more than once.
	Each func(func(register.Entry) error) error
	// Index, when set, is the register Each streams: grades and whether a
	// call ran are then read through its indexes, not by more passes.
	Index *register.Register
}

// Replay re-decides every decision entry streamed by each; see ReplayFrom.
func Replay(each func(func(register.Entry) error) error, decide Decider, mustKeep []MustKeep) (*ReplayReport, error) {
	return ReplayFrom(Source{Each: each}, decide, mustKeep, nil)
}

// ReplayFrom re-decides every decision entry of the source, in sequence
// order, with decide, and checks the must-keep list. Grades and outcome
// entries are not re-decided: grades say which flags mattered, outcomes
// say what happened the first time.
//
// Memory does not grow with the register: the latest grade per graded
// entry is read first (a sorted table, 10 bytes a grade), each flag is counted as it is
// re-decided, and only the changes (the report's list) are kept; whether a
// changed call ran is asked of the tool_use_id index, or, for a bundle,
// found by one more pass that looks only for the changed calls' ids.
//
// Each entry is judged with the session memory the hook had for it,
// rebuilt from the entries before it (session.Replay: the session's newest
// 256 entries with facts and the outcomes that say which ran), so replay
// is a pure function of the register. With an Index that memory is the
// register's own session index bounded to the entries before the call
// (nothing held); over a bundle it holds that window per session.
//
// With emit, the changes go to emit in sequence order instead of into the
// report's Changes (empty then), so that not even they are held: at once
// with an Index, after the last pass without one.
func ReplayFrom(src Source, decide Decider, mustKeep []MustKeep, emit func(*Change) error) (*ReplayReport, error) {
	rep := &ReplayReport{ByDirection: map[string]int{}, ByRule: map[string]RuleDelta{},
		GradedTrueLost: []int64{}, GradedFalseRemoved: []int64{}, Changes: []Change{}, MustKeep: []KeepResult{}}
	keep := map[int64]*KeepResult{}
	for _, m := range mustKeep {
		keep[m.Seq] = &KeepResult{MustKeep: m, Status: KeepMissing}
	}
	grades, err := latestGrades(src)
	if err != nil {
		return nil, err
	}
	var ran func(string) (bool, error)
	if src.Index != nil {
		lookup, done, err := src.Index.RanLookup()
		if err != nil {
			return nil, err
		}
		defer done()
		ran = lookup
	}
	var scB, scA [2]int           // true, false
	pending := map[string][]int{} // tool_use_id -> changes whose first time waits for a later pass
	memory := session.NewReplay()
	if src.Index != nil {
		memory = session.NewReplayIndexed(src.Index)
	}
	err = src.Each(func(e register.Entry) error {
		defer memory.Add(&e) // after its own re-decision: an entry is not its own memory
		k := keep[e.Seq]
		if e.Kind == "" && e.Commitment == "" {
			// Withheld in a bundle (hash only): nothing to re-decide.
			rep.NotReplayable++
			if k != nil {
				k.Status = KeepNotReplay
			}
			return nil
		}
		if k != nil && k.Commitment != e.Commitment {
			k.Status = KeepMismatch
			k = nil
		}
		if k != nil && !isJudged(e) {
			k.Status = KeepNotADecision
		}
		if !isJudged(e) {
			return nil
		}
		rep.Decisions++
		if k != nil {
			k.Before = e.Decision
		}
		if e.Input == nil {
			rep.NotReplayable++
			if k != nil {
				k.Status = KeepNotReplay
			}
			return nil
		}
		d, err := decide(e, memory.For(&e))
		if err != nil {
			return fmt.Errorf("entry %d: %w", e.Seq, err)
		}
		if err := memory.Err(); err != nil {
			return err
		}
		rep.Replayed++
		if d.Error != "" {
			rep.ReplayErrors++
		}
		if k != nil {
			k.After, k.Rules = d.Decision, d.Rules
			k.Status = KeepLost
			if d.Decision == "deny" {
				k.Status = KeepKept
			}
		}
		g := grades.get(e.Seq)
		fb, fa := isFlagDecision(e.Decision), isFlagDecision(d.Decision)
		if fb {
			rep.FlagsBefore++
			countGrade(&scB, g)
		}
		if fa {
			rep.FlagsAfter++
			countGrade(&scA, g)
		}
		switch {
		case fb && !fa:
			rep.FlagsLost++
			if g == GradeTrue {
				rep.GradedTrueLost = append(rep.GradedTrueLost, e.Seq)
			}
			if g == GradeFalse {
				rep.GradedFalseRemoved = append(rep.GradedFalseRemoved, e.Seq)
			}
		case !fb && fa:
			rep.FlagsGained++
		}
		if e.Decision == d.Decision {
			return nil
		}
		rep.Changed++
		rep.ByDirection[e.Decision+"->"+d.Decision]++
		for _, id := range minus(e.Rules, d.Rules) {
			rd := rep.ByRule[id]
			rd.Lost++
			rep.ByRule[id] = rd
		}
		for _, id := range minus(d.Rules, e.Rules) {
			rd := rep.ByRule[id]
			rd.Gained++
			rep.ByRule[id] = rd
		}
		// Copies: a streamed entry's strings share its row's memory.
		ch := Change{Seq: e.Seq, Tool: strings.Clone(e.Tool), Attended: e.Attended, Before: decisionName(e.Decision), After: d.Decision,
			RulesBefore: cloneRules(e.Rules), RulesAfter: nonNil(d.Rules), Grade: g}
		didRun := false
		switch {
		case e.ToolUseID == "":
		case ran != nil:
			if didRun, err = ran(e.ToolUseID); err != nil {
				return err
			}
		default:
			id := strings.Clone(e.ToolUseID)
			pending[id] = append(pending[id], len(rep.Changes))
		}
		ch.FirstTime, _ = outcome.Classify(e.Decision, e.ToolUseID != "", didRun, outcome.AnswerNone)
		if emit != nil && ran != nil {
			return emit(&ch)
		}
		rep.Changes = append(rep.Changes, ch)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(pending) > 0 {
		// The bundle's outcome entries, wherever they are, for the changed calls only.
		err = src.Each(func(e register.Entry) error {
			if e.Kind != register.KindOutcome || e.ToolUseID == "" {
				return nil
			}
			for _, i := range pending[e.ToolUseID] {
				c := &rep.Changes[i]
				c.FirstTime, _ = outcome.Classify(c.Before, true, true, outcome.AnswerNone)
			}
			delete(pending, e.ToolUseID)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if emit != nil && ran == nil {
		for i := range rep.Changes {
			if err := emit(&rep.Changes[i]); err != nil {
				return nil, err
			}
		}
		rep.Changes = []Change{}
	}
	rep.SelfConcordanceBefore = ratio(scB)
	rep.SelfConcordanceAfter = ratio(scA)
	rep.Gate = Held
	for _, m := range mustKeep {
		k := keep[m.Seq]
		rep.MustKeep = append(rep.MustKeep, *k)
		if k.Status != KeepKept {
			rep.Gate = "failed"
		}
	}
	sort.Slice(rep.MustKeep, func(i, j int) bool { return rep.MustKeep[i].Seq < rep.MustKeep[j].Seq })
	return rep, nil
}

// latestGrades is the latest grade of every graded entry, read before the
// replay (a grade comes after the flag it grades): from the register's
// kind index, or by a pass over the stream.
func latestGrades(src Source) (*gradeTable, error) {
	grades := &gradeTable{}
	var err error
	if src.Index != nil {
		err = src.Index.EachGrade(grades.add)
	} else {
		err = src.Each(func(e register.Entry) error {
			if e.Kind == register.KindGrade {
				return grades.add(e.Ref, e.Label)
			}
			return nil
		})
	}
	if err != nil {
		return nil, err
	}
	grades.seal()
	return grades, nil
}

// decisionName is d without the streamed row's memory behind it.
func decisionName(d string) string {
	switch d {
	case "allow":
		return "allow"
	case "ask":
		return "ask"
	case "deny":
		return "deny"
	}
	return strings.Clone(d)
}

func cloneRules(rules []string) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = strings.Clone(r)
	}
	return out
}

func isFlagDecision(d string) bool { return d == "deny" || d == "ask" }

func countGrade(c *[2]int, g string) {
	switch g {
	case GradeTrue:
		c[0]++
	case GradeFalse:
		c[1]++
	}
}

func ratio(c [2]int) *float64 {
	if c[0]+c[1] == 0 {
		return nil
	}
	v := float64(c[0]) / float64(c[0]+c[1])
	return &v
}

// minus returns the ids in a that are not in b.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || x == y
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
