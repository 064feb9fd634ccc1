package protocol

import (
	"fmt"
	"time"
)

// NotSealed is the status of a prediction read on register entries of
// which some, up to its cut-off, no verified seal covers: those entries
// were not read (they prove nothing), so the reading is incomplete and is
// never counted as held, nor as missed.
const NotSealed = "not_sealed"

// Unsealed is what the verification left unproven: N entries after the
// last verified seal, the earliest of them at First (zero when their times
// are unknown, e.g. withheld: then every cut-off is taken to include them).
type Unsealed struct {
	N     uint64
	First time.Time
}

// MarkUnsealed turns each register-side reading (held, missed, or not
// measurable for want of entries) whose cut-off includes an unsealed entry
// into not_sealed. Census-side metrics
// (--stops) are proved by their own seal. Call it before Preregister, which
// recounts.
func MarkUnsealed(rep *CheckReport, u Unsealed) {
	if u.N == 0 {
		return
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		if !r.onRegister {
			continue
		}
		asOf, err := time.Parse(DateLayout, r.AsOf)
		if err != nil {
			continue
		}
		if !u.First.IsZero() && u.First.After(EndOfDay(asOf)) {
			continue
		}
		r.Note = joinNote(r.Note, fmt.Sprintf("%d register entries after the last verified seal were not read (they prove nothing until sealed: run sentinel seal); on the sealed entries alone the reading is %s", u.N, r.Status))
		r.Status = NotSealed
	}
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
