package census

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/register"
)

// A fleet census counts several registers (machines, or users on one) in
// one stops.json: a row per source and the totals. Each source is verified
// by the caller (its chain and its seals in Rekor, against a pinned
// operator key) before it is counted; the census itself never sees a host
// name, only an opaque id derived from the register's own id.

// FleetSource is one verified register.
type FleetSource struct {
	// RegisterID is the register's own id (bundle header or seals); the
	// row names only SourceID(RegisterID).
	RegisterID string
	// KeyFingerprint is the fingerprint of the operator key its seals
	// verified against; KeyFrom says where that key came from ("pinned",
	// or "bundle": compare it with the one the operator published).
	KeyFingerprint string
	KeyFrom        string
	// Entries, Sealed and Unsealed are the verifier's counts.
	Entries, Sealed, Unsealed int64
	Register                  RegisterSource
	Open                      *register.Register // nil for a bundle
}

// SourceID is the opaque id of a register: stable across censuses (a
// reader can follow one machine from month to month) and naming nothing
// of the machine.
func SourceID(registerID string) string {
	sum := sha256.Sum256([]byte("sentinel census source\x00" + registerID))
	return "src-" + hex.EncodeToString(sum[:6])
}

// Fleet is stops.json's fleet: one row per source, in the order given.
type Fleet struct {
	Sources []FleetRow `json:"sources"`
	// Keys is how many distinct operator keys sealed the sources.
	Keys int    `json:"keys"`
	Note string `json:"note"`
}

// FleetRow is one source's census, register cells only (a fleet census
// reads no transcripts: they stay on each machine).
type FleetRow struct {
	Source         string          `json:"source"`
	KeyFingerprint string          `json:"key_fingerprint"`
	KeyFrom        string          `json:"key_from"`
	Entries        int64           `json:"entries"`
	Sealed         int64           `json:"sealed"`
	Unsealed       int64           `json:"unsealed"`
	Register       *RegisterCounts `json:"register"`
	Outcomes       Outcomes        `json:"outcomes"`
}

// ErrSameSource means two sources are the same register (a bundle given twice,
// or a bundle of a register also given): counting it twice would double it.
var ErrSameSource = errors.New("the same register is given twice")

// RunFleet counts each source alone (its row) and all of them together
// (the report's cells): the totals are one census over every source's
// entries, each register's sequence numbers moved apart so that grades
// stay with their own flags.
func RunFleet(srcs []FleetSource, o Options) (*Report, error) {
	if len(srcs) == 0 {
		return nil, ErrNothingRead
	}
	o.TranscriptDirs, o.Witness = nil, nil
	if o.NoTranscripts == "" {
		o.NoTranscripts = reasonFleetTranscripts
	}
	if err := Distinct(srcs); err != nil {
		return nil, err
	}
	fl := &Fleet{Sources: []FleetRow{}, Note: noteFleet}
	keys := map[string]bool{}
	var rowNM []NotMeasured // the rows' outcome cells not measured: null in the total too
	for _, s := range srcs {
		id := SourceID(s.RegisterID)
		one := o
		one.Register, one.Open, one.CI = s.Register, s.Open, ""
		r, err := Run(one)
		if err != nil {
			return nil, err
		}
		fl.Sources = append(fl.Sources, FleetRow{Source: id, KeyFingerprint: s.KeyFingerprint, KeyFrom: s.KeyFrom,
			Entries: s.Entries, Sealed: s.Sealed, Unsealed: s.Unsealed, Register: r.Register, Outcomes: r.Outcomes})
		keys[s.KeyFingerprint] = true
		for _, n := range r.NotMeasured {
			if strings.HasPrefix(n.Key, "outcomes.") && !slices.ContainsFunc(rowNM, func(m NotMeasured) bool { return m.Key == n.Key }) {
				rowNM = append(rowNM, n)
			}
		}
	}
	fl.Keys = len(keys)
	all := o
	all.Open = nil
	each := make([]RegisterSource, len(srcs))
	for i, s := range srcs {
		each[i] = s.Register
	}
	all.Register = FleetEntries(each)
	r, err := Run(all)
	if err != nil {
		return nil, err
	}
	r.Fleet = fl
	// An outcome cell is the sum of the rows' cells, null where one source
	// could not measure it (a source without outcome entries): a total
	// that left a source out would look like a reading of all of them.
	sumOutcomes(&r.Outcomes, fl.Sources)
	nm := r.NotMeasured[:0]
	for _, n := range r.NotMeasured {
		if !strings.HasPrefix(n.Key, "outcomes.") {
			nm = append(nm, n)
		}
	}
	r.NotMeasured = append(nm, rowNM...)
	r.Verify.KeyFingerprint, r.Verify.RegisterSeal = nil, nil
	if len(keys) == 1 {
		for k := range keys {
			r.Verify.KeyFingerprint = strp(k)
		}
	}
	return r, nil
}

// Distinct is ErrSameSource when two sources are one register.
func Distinct(srcs []FleetSource) error {
	seen := map[string]bool{}
	for _, s := range srcs {
		if seen[s.RegisterID] {
			return ErrSameSource
		}
		seen[s.RegisterID] = true
	}
	return nil
}

// FleetEntries streams every source's entries in turn, each source's
// sequence numbers (and its grades' references) moved past the previous
// source's: what is keyed by seq (flags and their grades) stays with its
// own register. protocol check reads a fleet through it too.
func FleetEntries(srcs []RegisterSource) RegisterSource {
	return func(fn func(register.Entry) error) error {
		var offset int64
		for _, each := range srcs {
			var last int64
			err := each(func(e register.Entry) error {
				last = e.Seq
				e.Seq += offset
				if e.Ref != 0 {
					e.Ref += offset
				}
				return fn(e)
			})
			if err != nil {
				return err
			}
			offset += last
		}
		return nil
	}
}

const reasonFleetTranscripts = "A census over a fleet reads registers and bundles only: each machine's transcripts stay on it, so no tool call or harness stop is counted and these cells are null, not 0."

const noteFleet = "One row per source: an opaque id (derived from the register's own id, naming no machine), the fingerprint of the operator key its seals verified against (pinned, or the bundle's own: compare it with the one the operator published), and that source's register counts and outcomes. Every source was verified (hash chain, seals in Rekor) before it was counted; the report's cells are the totals over all of them."

func sumOutcomes(o *Outcomes, rows []FleetRow) {
	sum := func(cell func(*Outcomes) *int64) *int64 {
		var t int64
		for i := range rows {
			v := cell(&rows[i].Outcomes)
			if v == nil {
				return nil
			}
			t += *v
		}
		return &t
	}
	a, d := &o.Asks, &o.Denies
	a.Total = sum(func(x *Outcomes) *int64 { return x.Asks.Total })
	a.Presented = sum(func(x *Outcomes) *int64 { return x.Asks.Presented })
	a.Approved = sum(func(x *Outcomes) *int64 { return x.Asks.Approved })
	a.Declined = sum(func(x *Outcomes) *int64 { return x.Asks.Declined })
	a.Unanswered = sum(func(x *Outcomes) *int64 { return x.Asks.Unanswered })
	a.Unknown = sum(func(x *Outcomes) *int64 { return x.Asks.Unknown })
	d.Held = sum(func(x *Outcomes) *int64 { return x.Denies.Held })
	d.Breached = sum(func(x *Outcomes) *int64 { return x.Denies.Breached })
}
