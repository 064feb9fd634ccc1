package protocol

import (
	"fmt"
	"time"
)

// NotPreregistered is the status of a prediction whose protocol file was not
// sealed in the log before its reading day began: never held.
const NotPreregistered = "not_preregistered"

// Seal is what the log says about the protocol file's seal.
type Seal struct {
	// Integrated is the log's integrated time of a verified seal of this
	// file's exact bytes (covered by the log's signed entry timestamp);
	// zero when there is none.
	Integrated time.Time
	// Why there is no verified seal, for the report ("never sealed",
	// "pending", "does not verify: ...").
	Missing string
}

// Preregister applies the seal to each prediction. A prediction is
// pre-registered when the seal was integrated before its reading day began
// (00:00 UTC of the stated reading date): the data it is read on cannot
// have been seen when it was written. Decision: the stated date counts,
// not --at, so a late reading cannot rescue a late seal and an interim one
// is held to the same date.
//
// Once the reading day has begun, a prediction without such a seal is
// not_preregistered whatever was measured (the measure is kept, for the
// record). Before that day an unsealed file can still be sealed in time,
// so only an interim "held" is withheld (not_preregistered: not sealed
// yet); misses and unmeasurable readings stand.
func Preregister(rep *CheckReport, s Seal, now time.Time) {
	rep.Held, rep.Missed, rep.NotMeasurable, rep.NotPreregistered, rep.NotSealed = 0, 0, 0, 0, 0
	for i := range rep.Results {
		r := &rep.Results[i]
		day, err := time.Parse(DateLayout, r.Reading)
		if err != nil {
			continue
		}
		r.Preregistered = !s.Integrated.IsZero() && s.Integrated.Before(day)
		begun := !now.UTC().Before(day)
		switch {
		case r.Preregistered:
		case !s.Integrated.IsZero():
			r.PreregNote = fmt.Sprintf("sealed %s, after the reading day %s began: not pre-registered", s.Integrated.UTC().Format(time.RFC3339), r.Reading)
		default:
			r.PreregNote = fmt.Sprintf("%s: not pre-registered", s.Missing)
		}
		if !r.Preregistered && (begun || r.Status == Held) {
			r.Status = NotPreregistered
		}
		switch r.Status {
		case Held:
			rep.Held++
		case Missed:
			rep.Missed++
		case NotPreregistered:
			rep.NotPreregistered++
		case NotSealed:
			rep.NotSealed++
		default:
			rep.NotMeasurable++
		}
	}
}
