package protocol

import (
	"fmt"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// Grade labels.
const (
	GradeTrue    = "true"
	GradeFalse   = "false"
	GradeUnclear = "unclear"
)

// IsFlag reports whether an entry is a flag the operator may grade: a
// decision (or an error entry, which never fails open) that denied or asked.
func IsFlag(e register.Entry) bool {
	return (e.Kind == register.KindDecision || e.Kind == register.KindError) &&
		(e.Decision == "deny" || e.Decision == "ask")
}

// isJudged reports whether an entry counts as a decision of the sentinel.
func isJudged(e register.Entry) bool {
	return (e.Kind == register.KindDecision || e.Kind == register.KindError) && e.Decision != ""
}

type flagInfo struct {
	deny       bool
	unattended bool
}

// Tally accumulates the register-side metrics up to a cut-off time. Grades
// are latest-wins, and only grades made by the cut-off count: a reading
// must not use grades written after it.
type Tally struct {
	Until     time.Time // inclusive; zero means no cut-off
	decisions int
	flags     map[int64]flagInfo
	grades    map[int64]string
}

// NewTally returns a tally of entries with Time <= until (zero: all).
func NewTally(until time.Time) *Tally {
	return &Tally{Until: until, flags: map[int64]flagInfo{}, grades: map[int64]string{}}
}

// Add counts one entry. Entries must come in sequence order.
func (t *Tally) Add(e register.Entry) {
	if !t.Until.IsZero() && e.Time.After(t.Until) {
		return
	}
	switch {
	case e.Kind == register.KindGrade:
		if _, ok := t.flags[e.Ref]; ok {
			t.grades[e.Ref] = e.Label
		}
	case isJudged(e):
		t.decisions++
		if IsFlag(e) {
			t.flags[e.Seq] = flagInfo{deny: e.Decision == "deny", unattended: !e.Attended}
		}
	}
}

// Measure is one metric's measured value, or the reason it has none.
type Measure struct {
	Value  *float64 `json:"value"`          // numeric metrics; null when not measurable
	Bool   *bool    `json:"bool,omitempty"` // human_cell_measured
	Basis  string   `json:"basis,omitempty"`
	Reason string   `json:"reason,omitempty"` // why not measurable
}

func value(v float64, basis string) Measure { return Measure{Value: &v, Basis: basis} }
func unmeasurable(reason string) Measure    { return Measure{Reason: reason} }

// Decisions is the number of judged entries counted.
func (t *Tally) Decisions() int { return t.decisions }

// Flags is the number of deny and ask entries counted.
func (t *Tally) Flags() int { return len(t.flags) }

// Concordance counts the latest grades of the flags.
func (t *Tally) Concordance() (tru, fals, unclear int) {
	for _, g := range t.grades {
		switch g {
		case GradeTrue:
			tru++
		case GradeFalse:
			fals++
		default:
			unclear++
		}
	}
	return
}

// Metric measures one register-side metric.
func (t *Tally) Metric(name string) Measure {
	switch name {
	case MetricSelfConcordance:
		tr, fa, un := t.Concordance()
		if tr+fa == 0 {
			return unmeasurable(fmt.Sprintf("no flag graded true or false (%d unclear)", un))
		}
		return value(float64(tr)/float64(tr+fa),
			fmt.Sprintf("%d graded true of %d graded true or false (%d unclear excluded); the operator's own grading, not precision", tr, tr+fa, un))
	case MetricUnattendedShareOfFlags:
		if len(t.flags) == 0 {
			return unmeasurable("no flags (deny or ask) in the register")
		}
		n := 0
		for _, f := range t.flags {
			if f.unattended {
				n++
			}
		}
		return value(float64(n)/float64(len(t.flags)), fmt.Sprintf("%d unattended of %d flags", n, len(t.flags)))
	case MetricUnattendedShareTrueDenials:
		n, u := 0, 0
		for seq, f := range t.flags {
			if f.deny && t.grades[seq] == GradeTrue {
				n++
				if f.unattended {
					u++
				}
			}
		}
		if n == 0 {
			return unmeasurable("no deny graded true")
		}
		return value(float64(u)/float64(n), fmt.Sprintf("%d unattended of %d denies graded true", u, n))
	case MetricSentinelFlagsPer100:
		if t.decisions == 0 {
			return unmeasurable("no decisions in the register")
		}
		return value(100*float64(len(t.flags))/float64(t.decisions),
			fmt.Sprintf("%d flags in %d decisions", len(t.flags), t.decisions))
	}
	return unmeasurable(name + " is not measured from the register")
}

// Stops is what a prediction needs from the census (stops.json). A nil
// pointer means the census did not measure it; the reason says why.
type Stops struct {
	Source                  string   // the file read, for the report
	HarnessStopsPer100Calls *float64 // a lower bound: tool-call counts are an upper bound
	HarnessReason           string
	HumanCellMeasured       *bool
	HumanReason             string
}

// StopsMetric measures a census-side metric; s may be nil (no --stops).
func StopsMetric(s *Stops, name string) Measure {
	if s == nil {
		return unmeasurable("needs the census: pass --stops stops.json")
	}
	switch name {
	case MetricHarnessStopsPer100Calls:
		if s.HarnessStopsPer100Calls == nil {
			return unmeasurable(orDefault(s.HarnessReason, "the census has no harness stop rate"))
		}
		return value(*s.HarnessStopsPer100Calls, "from "+s.Source+" (a lower bound: tool calls are counted generously)")
	case MetricHumanCellMeasured:
		if s.HumanCellMeasured == nil {
			return unmeasurable(orDefault(s.HumanReason, "the census does not say whether the human cell is measured"))
		}
		b := *s.HumanCellMeasured
		m := Measure{Bool: &b, Basis: "from " + s.Source}
		if s.HumanReason != "" {
			m.Basis += ": " + s.HumanReason
		}
		return m
	}
	return unmeasurable(name + " is not measured from the census")
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// fromCensus reports whether a metric is read from stops.json.
func fromCensus(metric string) bool {
	return metric == MetricHarnessStopsPer100Calls || metric == MetricHumanCellMeasured
}
