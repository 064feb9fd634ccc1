package protocol

import (
	"fmt"
	"sort"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// replayBefore is Replay as it was before it streamed (a map of every
// outcome's id, every flag kept until the end): the reference the
// streaming Replay must equal. Replay re-decides every decision entry of the register (streamed by each,
// in sequence order) with decide, and checks the must-keep list. Grades and
// outcome entries are not re-decided: grades say which flags mattered,
// outcomes say what happened the first time.
func replayBefore(each func(func(register.Entry) error) error, decide Decider, mustKeep []MustKeep) (*ReplayReport, error) {
	rep := &ReplayReport{ByDirection: map[string]int{}, ByRule: map[string]RuleDelta{},
		GradedTrueLost: []int64{}, GradedFalseRemoved: []int64{}, Changes: []Change{}, MustKeep: []KeepResult{}}
	keep := map[int64]*KeepResult{}
	for _, m := range mustKeep {
		keep[m.Seq] = &KeepResult{MustKeep: m, Status: KeepMissing}
	}
	// Only flags (before or after) and changed entries are kept in memory:
	// a million allows that stay allows cost nothing here.
	var kept []replayed
	grades := map[int64]string{}
	ran := map[string]bool{}
	err := each(func(e register.Entry) error {
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
		switch {
		case e.Kind == register.KindGrade:
			grades[e.Ref] = e.Label
			return nil
		case e.Kind == register.KindOutcome:
			if e.ToolUseID != "" {
				ran[e.ToolUseID] = true
			}
			return nil
		case !isJudged(e):
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
		d, err := decide(e, nil)
		if err != nil {
			return fmt.Errorf("entry %d: %w", e.Seq, err)
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
		if e.Decision != d.Decision || isFlagDecision(e.Decision) || isFlagDecision(d.Decision) {
			kept = append(kept, replayed{seq: e.Seq, before: e.Decision, after: d.Decision, toolUseID: e.ToolUseID,
				rulesBefore: e.Rules, rulesAfter: d.Rules, tool: e.Tool, attended: e.Attended})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var scB, scA [2]int // true, false
	for _, r := range kept {
		g := grades[r.seq]
		fb, fa := isFlagDecision(r.before), isFlagDecision(r.after)
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
				rep.GradedTrueLost = append(rep.GradedTrueLost, r.seq)
			}
			if g == GradeFalse {
				rep.GradedFalseRemoved = append(rep.GradedFalseRemoved, r.seq)
			}
		case !fb && fa:
			rep.FlagsGained++
		}
		if r.before == r.after {
			continue
		}
		rep.Changed++
		rep.ByDirection[r.before+"->"+r.after]++
		for _, id := range minus(r.rulesBefore, r.rulesAfter) {
			d := rep.ByRule[id]
			d.Lost++
			rep.ByRule[id] = d
		}
		for _, id := range minus(r.rulesAfter, r.rulesBefore) {
			d := rep.ByRule[id]
			d.Gained++
			rep.ByRule[id] = d
		}
		first, _ := outcome.Classify(r.before, r.toolUseID != "", ran[r.toolUseID], outcome.AnswerNone)
		rep.Changes = append(rep.Changes, Change{Seq: r.seq, Tool: r.tool, Attended: r.attended,
			Before: r.before, After: r.after, RulesBefore: nonNil(r.rulesBefore), RulesAfter: nonNil(r.rulesAfter),
			Grade: g, FirstTime: first})
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

type replayed struct {
	seq         int64
	before      string
	after       string
	toolUseID   string
	rulesBefore []string
	rulesAfter  []string
	tool        string
	attended    bool
}
