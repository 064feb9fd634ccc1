package main

import (
	"time"

	"github.com/sentinel-guard/sentinel/census"
	"github.com/sentinel-guard/sentinel/register"
)

// protocolWitness places the register's unattended asks and denies (up to
// the end of the --at day, when one is given) against the schedulers'
// record, as census --witness does; nil without --witness.
func protocolWitness(paths []string, each func(func(register.Entry) error) error, atT time.Time) (*census.WitnessCounts, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	w, err := census.ReadWitness(paths)
	if err != nil {
		return nil, fail(exitError, "--witness: %v", err)
	}
	var until time.Time
	if !atT.IsZero() {
		until = atT.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	}
	j, err := census.JoinWitness(w, each, time.Time{}, until)
	if err != nil {
		return nil, fail(exitError, "placing the register against the witness: %v", err)
	}
	return w.Counts(j), nil
}
