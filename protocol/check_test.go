package protocol

import (
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// synthetic builds a small register: 20 decisions, 4 flags (2 unattended
// denies graded true, 1 attended ask graded false, 1 attended ask graded
// false then regraded unclear), plus a grade made after the reading.
func synthetic() []register.Entry {
	day := time.Date(2026, 12, 10, 12, 0, 0, 0, time.UTC)
	var es []register.Entry
	add := func(e register.Entry) int64 {
		e.Seq = int64(len(es) + 1)
		if e.Time.IsZero() {
			e.Time = day
		}
		es = append(es, e)
		return e.Seq
	}
	for i := 0; i < 16; i++ {
		add(register.Entry{Kind: register.KindDecision, Decision: "allow", Attended: true})
	}
	reset := add(register.Entry{Kind: register.KindDecision, Decision: "deny"})
	drop := add(register.Entry{Kind: register.KindDecision, Decision: "deny"})
	ask1 := add(register.Entry{Kind: register.KindDecision, Decision: "ask", Attended: true})
	ask2 := add(register.Entry{Kind: register.KindDecision, Decision: "ask", Attended: true})
	add(register.Entry{Kind: register.KindOutcome, Label: "ran"})
	add(register.Entry{Kind: register.KindGrade, Ref: reset, Label: GradeTrue})
	add(register.Entry{Kind: register.KindGrade, Ref: drop, Label: GradeTrue})
	add(register.Entry{Kind: register.KindGrade, Ref: ask1, Label: GradeFalse})
	add(register.Entry{Kind: register.KindGrade, Ref: ask2, Label: GradeFalse})
	add(register.Entry{Kind: register.KindGrade, Ref: ask2, Label: GradeUnclear}) // latest wins
	// After the reading: must not count.
	add(register.Entry{Kind: register.KindGrade, Ref: ask1, Label: GradeTrue, Time: day.AddDate(0, 0, 10)})
	add(register.Entry{Kind: register.KindDecision, Decision: "deny", Time: day.AddDate(0, 0, 10)})
	return es
}

func each(es []register.Entry) func(func(register.Entry) error) error {
	return func(fn func(register.Entry) error) error {
		for _, e := range es {
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	}
}

func f64(v float64) *float64 { return &v }
func bp(v bool) *bool        { return &v }

func TestCheckReachesEveryStatus(t *testing.T) {
	const r = "2026-12-15"
	f := &File{Version: 1, CatalogVersion: "v", CatalogHash: "h", Predictions: []Prediction{
		// 2 true / 3 graded true-or-false -> 0.667 (ask2 is unclear now).
		{ID: "sc", Metric: MetricSelfConcordance, Comparison: Below, Value: f64(0.5), Reading: r},
		{ID: "unatt-flags", Metric: MetricUnattendedShareOfFlags, Comparison: Below, Value: f64(0.1), Reading: r},
		{ID: "unatt-true", Metric: MetricUnattendedShareTrueDenials, Comparison: Above, Value: f64(0.5), Reading: r},
		{ID: "flags-rate", Metric: MetricSentinelFlagsPer100, Comparison: Between, Low: f64(19), High: f64(21), Reading: r},
		{ID: "harness", Metric: MetricHarnessStopsPer100Calls, Comparison: Between, Low: f64(0.5), High: f64(1.5), Reading: r},
		{ID: "human", Metric: MetricHumanCellMeasured, Comparison: Is, Expected: bp(false), Reading: r},
		{ID: "future", Metric: MetricSelfConcordance, Comparison: Below, Value: f64(0.5), Reading: "2027-06-01"},
	}}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC)
	rep, err := Check(f, each(synthetic()), nil, time.Time{}, now)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Result{}
	for _, res := range rep.Results {
		got[res.ID] = res
	}
	want := map[string]string{
		"sc": Missed, "unatt-flags": Missed, "unatt-true": Held, "flags-rate": Held,
		"harness": NotMeasurable, "human": NotMeasurable, "future": NotMeasurable,
	}
	for id, st := range want {
		if got[id].Status != st {
			t.Errorf("%s: status %s, want %s (%+v)", id, got[id].Status, st, got[id].Measured)
		}
	}
	if v := got["sc"].Measured.Value; v == nil || *v < 0.66 || *v > 0.67 {
		t.Errorf("self-concordance measured %v, want 2/3", v)
	}
	if v := got["unatt-flags"].Measured.Value; v == nil || *v != 0.5 {
		t.Errorf("unattended share of flags %v, want 0.5", v)
	}
	if got["harness"].Measured.Value != nil || got["harness"].Measured.Reason == "" {
		t.Errorf("not measurable must carry a reason and no value: %+v", got["harness"].Measured)
	}
	if rep.Held != 2 || rep.Missed != 2 || rep.NotMeasurable != 3 {
		t.Errorf("totals %d/%d/%d", rep.Held, rep.Missed, rep.NotMeasurable)
	}

	// With the census: the harness rate and the human cell become measurable.
	stops := &Stops{Source: "stops.json", HarnessStopsPer100Calls: f64(2.0), HumanCellMeasured: bp(false), HumanReason: "oversight in conversation leaves no record"}
	rep, _ = Check(f, each(synthetic()), stops, time.Time{}, now)
	for _, res := range rep.Results {
		if res.ID == "harness" && res.Status != Missed {
			t.Errorf("harness with 2.0: %s", res.Status)
		}
		if res.ID == "human" && res.Status != Held {
			t.Errorf("human with false: %s", res.Status)
		}
	}

	// An interim reading with --at: the future prediction becomes readable
	// and is marked interim; the late grade (ask1 true) still does not count.
	rep, _ = Check(f, each(synthetic()), nil, time.Date(2026, 12, 12, 0, 0, 0, 0, time.UTC), now)
	for _, res := range rep.Results {
		if res.ID == "future" && (res.Status != Missed || !res.Interim) {
			t.Errorf("future at 2026-12-12: %+v", res)
		}
	}
	// A reading made on the reading day itself is interim: later grades
	// that day still change it. The day after, it is final.
	for _, c := range []struct {
		now     time.Time
		interim bool
	}{{time.Date(2027, 6, 1, 23, 0, 0, 0, time.UTC), true}, {time.Date(2027, 6, 2, 0, 0, 1, 0, time.UTC), false}} {
		rep, _ = Check(f, each(synthetic()), nil, time.Time{}, c.now)
		for _, res := range rep.Results {
			if res.ID == "future" && res.Interim != c.interim {
				t.Errorf("future read at %s: interim %v, want %v", c.now, res.Interim, c.interim)
			}
		}
	}
	// A late reading counts the late grade: 3 true of 3.
	rep, _ = Check(f, each(synthetic()), nil, time.Date(2026, 12, 30, 0, 0, 0, 0, time.UTC), now.AddDate(0, 1, 0))
	for _, res := range rep.Results {
		if res.ID == "sc" && (res.Measured.Value == nil || *res.Measured.Value != 1) {
			t.Errorf("sc at 2026-12-30: %+v", res.Measured)
		}
	}
}

func TestEvaluateBounds(t *testing.T) {
	p := Prediction{Metric: MetricSentinelFlagsPer100, Comparison: Between, Low: f64(0.5), High: f64(1.5)}
	for v, want := range map[float64]string{0.5: Held, 1.5: Held, 0.49: Missed, 1.51: Missed} {
		if got := Evaluate(p, Measure{Value: f64(v)}); got != want {
			t.Errorf("between at %g: %s", v, got)
		}
	}
	below := Prediction{Metric: MetricSelfConcordance, Comparison: Below, Value: f64(0.5)}
	if Evaluate(below, Measure{Value: f64(0.5)}) != Missed {
		t.Error("below is strict")
	}
	if Evaluate(below, Measure{Reason: "none"}) != NotMeasurable {
		t.Error("no value must be not_measurable")
	}
}
