package protocol

import (
	"fmt"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// FleetSource is one verified source of a reading over a fleet.
type FleetSource struct {
	ID   string // opaque (census.SourceID), naming no machine
	Each func(func(register.Entry) error) error
}

// CheckFleet reads f over a fleet: each register-side prediction is
// measured on the fleet's totals (all streams every source's entries, their
// sequence numbers moved apart: census.FleetEntries), and is not_measurable
// when any source alone cannot measure it: a total that left a source out
// would read as a reading of all of them. Census-side predictions read
// stops, as Check does.
func CheckFleet(f *File, all func(func(register.Entry) error) error, srcs []FleetSource, stops *Stops, at, now time.Time) (*CheckReport, error) {
	rep, err := Check(f, all, stops, at, now)
	if err != nil {
		return nil, err
	}
	for _, s := range srcs {
		one, err := Check(f, s.Each, stops, at, now)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.ID, err)
		}
		for i := range rep.Results {
			r, o := &rep.Results[i], one.Results[i]
			if !r.onRegister || r.Status == NotMeasurable || o.ID != r.ID || o.Status != NotMeasurable {
				continue
			}
			if r.Status == Held {
				rep.Held--
			} else {
				rep.Missed--
			}
			rep.NotMeasurable++
			r.Status = NotMeasurable
			r.Measured = unmeasurable(fmt.Sprintf("source %s cannot measure it (%s): a total without it is not the fleet's (the total read: %s)", s.ID, o.Measured.Reason, r.Measured.Basis))
		}
	}
	return rep, nil
}
