package protocol

import (
	"strings"
	"testing"
	"time"
)

func TestPreregister(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	day := func(s string) time.Time { d, _ := time.Parse(DateLayout, s); return d }
	report := func() *CheckReport {
		return &CheckReport{Results: []Result{
			{ID: "past-held", Reading: "2026-11-20", Status: Held},
			{ID: "past-missed", Reading: "2026-11-20", Status: Missed},
			{ID: "today-held", Reading: "2026-12-01", Status: Held},
			{ID: "future-interim-held", Reading: "2027-01-10", Status: Held, Interim: true},
			{ID: "future-unmeasured", Reading: "2027-01-10", Status: NotMeasurable},
		}}
	}
	cases := []struct {
		name string
		seal Seal
		want []string
	}{
		{"sealed long before", Seal{Integrated: day("2026-11-01")}, []string{Held, Missed, Held, Held, NotMeasurable}},
		// Sealed during the reading day itself: its data had begun to exist.
		{"sealed on the reading day", Seal{Integrated: day("2026-11-20").Add(time.Hour)},
			[]string{NotPreregistered, NotPreregistered, Held, Held, NotMeasurable}},
		{"sealed after every past reading", Seal{Integrated: now},
			[]string{NotPreregistered, NotPreregistered, NotPreregistered, Held, NotMeasurable}},
		{"never sealed", Seal{Missing: "never sealed"},
			[]string{NotPreregistered, NotPreregistered, NotPreregistered, NotPreregistered, NotMeasurable}},
	}
	for _, tc := range cases {
		rep := report()
		Preregister(rep, tc.seal, now)
		held := 0
		for i, r := range rep.Results {
			if r.Status != tc.want[i] {
				t.Errorf("%s: %s is %s, want %s", tc.name, r.ID, r.Status, tc.want[i])
			}
			if r.Status == Held {
				held++
			}
			if r.Status == NotPreregistered && !strings.Contains(r.PreregNote, "not pre-registered") {
				t.Errorf("%s: %s: note %q", tc.name, r.ID, r.PreregNote)
			}
		}
		if rep.Held != held || rep.Held+rep.Missed+rep.NotMeasurable+rep.NotPreregistered != len(rep.Results) {
			t.Errorf("%s: counts %+v", tc.name, rep)
		}
	}
}
