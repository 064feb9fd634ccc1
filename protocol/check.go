package protocol

import (
	"fmt"
	"sort"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// Prediction statuses. not_measurable and not_preregistered (prereg.go)
// are never counted as held.
const (
	Held          = "held"
	Missed        = "missed"
	NotMeasurable = "not_measurable"
)

// Result is one prediction's reading.
type Result struct {
	ID        string  `json:"id"`
	Metric    string  `json:"metric"`
	Statement string  `json:"statement"`
	Reading   string  `json:"reading"` // the stated reading date
	AsOf      string  `json:"as_of"`   // the date the data was cut at
	Interim   bool    `json:"interim"` // read before the reading day was over (--at, or on the day itself)
	Status    string  `json:"status"`
	Measured  Measure `json:"measured"`
	Note      string  `json:"note,omitempty"`
	// Preregistered: the file was sealed before the reading day began
	// (Preregister); PreregNote says why not.
	Preregistered bool   `json:"preregistered"`
	PreregNote    string `json:"prereg_note,omitempty"`
	// onRegister: measured on register entries (its cut-off has come and
	// the metric is not the census's); MarkUnsealed reads it.
	onRegister bool
}

// CheckReport is the outcome of Check.
type CheckReport struct {
	Results          []Result `json:"results"`
	Held             int      `json:"held"`
	Missed           int      `json:"missed"`
	NotMeasurable    int      `json:"not_measurable"`
	NotPreregistered int      `json:"not_preregistered"`
	NotSealed        int      `json:"not_sealed"`
}

// Evaluate compares a measure with a prediction.
func Evaluate(p Prediction, m Measure) string {
	if p.Metric == MetricHumanCellMeasured {
		if m.Bool == nil || p.Expected == nil {
			return NotMeasurable
		}
		if *m.Bool == *p.Expected {
			return Held
		}
		return Missed
	}
	if m.Value == nil {
		return NotMeasurable
	}
	v := *m.Value
	ok := false
	switch p.Comparison {
	case Below:
		ok = v < *p.Value
	case Above:
		ok = v > *p.Value
	case Between:
		ok = v >= *p.Low && v <= *p.High
	default:
		return NotMeasurable
	}
	if ok {
		return Held
	}
	return Missed
}

// EndOfDay is the last instant of the UTC day d falls in.
func EndOfDay(d time.Time) time.Time {
	y, m, day := d.UTC().Date()
	return time.Date(y, m, day, 0, 0, 0, 0, time.UTC).Add(24*time.Hour - time.Nanosecond)
}

// Check reads every prediction of f. Register-side metrics use the entries
// with Time up to the end of the reading day (or of at, when not zero: an
// interim or late reading). A prediction whose reading date is after today
// and that has no at is not measurable yet. each streams the register in
// sequence order; stops may be nil.
func Check(f *File, each func(func(register.Entry) error) error, stops *Stops, at, now time.Time) (*CheckReport, error) {
	today := EndOfDay(now)
	cut := make([]time.Time, len(f.Predictions))
	tallies := map[time.Time]*Tally{}
	for i, p := range f.Predictions {
		d, err := p.ReadingDate()
		if err != nil {
			return nil, fmt.Errorf("prediction %q: %w", p.ID, err)
		}
		cut[i] = EndOfDay(d)
		if !at.IsZero() {
			cut[i] = EndOfDay(at)
		}
		if cut[i].After(today) {
			continue // not readable yet
		}
		if tallies[cut[i]] == nil {
			tallies[cut[i]] = NewTally(cut[i])
		}
	}
	if len(tallies) > 0 {
		// One pass over the register feeds every cut-off.
		ts := make([]*Tally, 0, len(tallies))
		for _, t := range tallies {
			ts = append(ts, t)
		}
		err := each(func(e register.Entry) error {
			for _, t := range ts {
				t.Add(e)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	rep := &CheckReport{}
	for i, p := range f.Predictions {
		d, _ := p.ReadingDate()
		r := Result{ID: p.ID, Metric: p.Metric, Statement: p.Statement(), Reading: p.Reading,
			AsOf: cut[i].Format(DateLayout), Note: p.Note,
			// A reading made on its own reading day is interim too: grades
			// and entries of the rest of that day still change it.
			Interim: cut[i].Before(EndOfDay(d)) || !cut[i].After(today) && !now.After(EndOfDay(d))}
		switch t := tallies[cut[i]]; {
		case t == nil:
			r.Measured = unmeasurable(fmt.Sprintf("the reading date %s has not come yet; pass --at DATE for an interim reading", r.AsOf))
		case fromCensus(p.Metric):
			r.Measured = StopsMetric(stops, p.Metric)
		default:
			r.Measured = t.Metric(p.Metric)
			r.onRegister = true
		}
		r.Status = Evaluate(p, r.Measured)
		switch r.Status {
		case Held:
			rep.Held++
		case Missed:
			rep.Missed++
		default:
			rep.NotMeasurable++
		}
		rep.Results = append(rep.Results, r)
	}
	sort.SliceStable(rep.Results, func(i, j int) bool { return rep.Results[i].Reading < rep.Results[j].Reading })
	return rep, nil
}
