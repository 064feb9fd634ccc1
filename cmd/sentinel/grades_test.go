package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
)

// TestGradesByIndexSameAsStream: grades and grades --ungraded read through
// the kind index give exactly what the one-pass readings that kept every
// flag gave, on a register with regrades, grades of allows, of outcome
// entries, of later and of missing entries, and commitment-only notes.
func TestGradesByIndexSameAsStream(t *testing.T) {
	r, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 4000
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	err = register.BulkLoad(r, n, func(i int) *register.Entry {
		e := &register.Entry{Kind: register.KindDecision, Time: at.Add(time.Duration(i) * time.Minute), Tool: "Bash",
			ToolUseID: fmt.Sprintf("toolu_%d", i), Decision: []string{"allow", "ask", "deny"}[rng.IntN(3)], Rules: []string{"R"},
			Input: []byte(fmt.Sprintf(`{"command":"c %d"}`, i)), Attended: rng.IntN(2) == 0}
		switch p := rng.IntN(10); {
		case p < 2:
			e.Kind, e.Decision, e.Input, e.Label, e.ToolUseID = register.KindOutcome, "", nil, register.LabelRan, fmt.Sprintf("toolu_%d", rng.IntN(i+1))
		case p < 4:
			note, _ := json.Marshal(gradeNote{Note: fmt.Sprintf("n%d", i)})
			if rng.IntN(4) == 0 {
				note = nil
			}
			e.Kind, e.Decision, e.Input, e.ToolUseID, e.Rules = register.KindGrade, "", note, "", []string{}
			e.Ref, e.Label = int64(rng.IntN(i+40)), []string{protocol.GradeTrue, protocol.GradeFalse, protocol.GradeUnclear}[rng.IntN(3)]
		}
		return e
	})
	if err != nil {
		t.Fatal(err)
	}
	want, err := collectGradesBefore(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := collectGrades(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	regraded := 0
	for _, g := range want.Grades {
		regraded += g.Regraded
	}
	if len(want.Grades) < 100 || regraded == 0 {
		t.Fatalf("the register lacks a case: %d graded, %d regrades", len(want.Grades), regraded)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grades differ: %d graded, want %d", len(got.Grades), len(want.Grades))
	}
	wu, err := ungradedFlagsBefore(r)
	if err != nil {
		t.Fatal(err)
	}
	gu, err := ungradedFlags(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(wu) == 0 || !reflect.DeepEqual(gu, wu) {
		t.Errorf("ungraded differ: %d, want %d", len(gu), len(wu))
	}
	// grades --ungraded --json streamed: the same JSON value as the whole
	// list marshalled at once; the table lists every one and counts them.
	var out, whole bytes.Buffer
	if err := printUngraded(&out, r, true, &rowCap{}); err != nil {
		t.Fatal(err)
	}
	protoJSON(&whole, map[string]any{"ungraded": wu, "count": len(wu)})
	var g, w any
	if err := json.Unmarshal(out.Bytes(), &g); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	json.Unmarshal(whole.Bytes(), &w)
	if !reflect.DeepEqual(g, w) {
		t.Error("grades --ungraded --json differs from the whole list")
	}
	out.Reset()
	if err := printUngraded(&out, r, false, &rowCap{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(wu)+3 || lines[len(lines)-1] != fmt.Sprintf("%d ungraded: sentinel grade (the walk), or sentinel grade --from FILE", len(wu)) ||
		!strings.HasPrefix(lines[1], fmt.Sprint(wu[0].Seq)) {
		t.Errorf("table: %d lines for %d flags, last %q", len(lines), len(wu), lines[len(lines)-1])
	}
}

// collectGradesBefore is collectGrades as it was (a map of every flag),
// the reference the index reading must equal. It streams the register once. It keeps a few fields of each
// flag (strings copied out of the row, so that no row stays in memory) and
// the latest grade of each graded flag; what happened to a graded call is
// looked up by the tool_use_id index afterwards.
func collectGradesBefore(r *register.Register) (*gradesReport, error) {
	type flag struct {
		f         flagFields
		toolUseID string
	}
	flags := map[int64]*flag{}
	latest := map[int64]*gradedFlag{}
	var in interner
	err := r.Each(1, func(e *register.Entry) error {
		switch {
		case protocol.IsFlag(*e):
			flags[e.Seq] = &flag{flagFields{Seq: e.Seq, Time: e.Time, Tool: in.get(e.Tool), Decision: in.get(e.Decision),
				Attended: e.Attended, Rules: in.list(e.Rules)}, strings.Clone(e.ToolUseID)}
		case e.Kind == register.KindGrade:
			f, ok := flags[e.Ref]
			if !ok {
				return nil // a grade of a non-flag cannot be appended by sentinel; ignore
			}
			var n gradeNote
			_ = json.Unmarshal(e.Input, &n) // commitment-only grades have no note
			g := &gradedFlag{flagFields: f.f, Grade: in.get(e.Label), GradeSeq: e.Seq, GradedAt: e.Time, Note: n.Note}
			if old := latest[e.Ref]; old != nil {
				g.Regraded = old.Regraded + 1
			}
			latest[e.Ref] = g
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ran, done, err := r.RanLookup()
	if err != nil {
		return nil, err
	}
	defer done()
	for seq, g := range latest {
		id := flags[seq].toolUseID
		didRun := false
		if id != "" {
			if didRun, err = ran(id); err != nil {
				return nil, err
			}
		}
		g.Outcome, _ = outcome.Classify(g.Decision, id != "", didRun, outcome.AnswerNone)
	}
	rep := &gradesReport{Grades: []gradedFlag{}, Definition: selfConcordanceDef}
	for _, g := range latest {
		rep.Grades = append(rep.Grades, *g)
		switch g.Grade {
		case protocol.GradeTrue:
			rep.True++
		case protocol.GradeFalse:
			rep.False++
		default:
			rep.Unclear++
		}
	}
	sort.Slice(rep.Grades, func(i, j int) bool { return rep.Grades[i].Seq < rep.Grades[j].Seq })
	if rep.True+rep.False > 0 {
		v := float64(rep.True) / float64(rep.True+rep.False)
		rep.SelfConcordance = &v
	}
	return rep, nil
}

func ungradedFlagsBefore(r *register.Register) ([]ungradedFlag, error) {
	var flags []ungradedFlag
	at := map[int64]int{} // seq -> index in flags
	graded := map[int64]bool{}
	var str interner
	err := r.Each(1, func(e *register.Entry) error {
		switch {
		case protocol.IsFlag(*e):
			at[e.Seq] = len(flags)
			in := ""
			if len(e.Input) > 0 {
				in = shortInput(e.Input, 200)
			}
			flags = append(flags, ungradedFlag{flagFields: flagFields{Seq: e.Seq, Time: e.Time, Tool: str.get(e.Tool),
				Decision: str.get(e.Decision), Attended: e.Attended, Rules: str.list(e.Rules)}, Reason: str.get(e.Reason), Input: strings.Clone(in)})
		case e.Kind == register.KindGrade:
			graded[e.Ref] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := flags[:0]
	for _, f := range flags {
		if !graded[f.Seq] {
			out = append(out, f)
		}
	}
	return append([]ungradedFlag{}, out...), nil
}
