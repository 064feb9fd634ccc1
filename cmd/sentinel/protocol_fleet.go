package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/census"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/seal"
)

// many: protocol check reads a fleet (more than one --bundle/--register).
func (f *fleetFlags) many() bool { return len(f.bundles)+len(f.registers) > 1 }

// checkFleetOut lists the sources of a reading over a fleet.
type checkFleetOut struct {
	Sources []checkFleetSource `json:"sources"`
	Keys    int                `json:"keys"` // distinct operator keys
}

type checkFleetSource struct {
	Source         string `json:"source"` // census.SourceID: naming no machine
	KeyFingerprint string `json:"key_fingerprint"`
	KeyFrom        string `json:"key_from"`
	Entries        int64  `json:"entries"`
	Sealed         int64  `json:"sealed"`
	Unsealed       int64  `json:"unsealed"`
}

// Census-side metrics over a fleet: the fleet census reads no transcripts.
const fleetStopsReason = "a reading over a fleet reads registers and bundles only: each machine's transcripts stay on it, so the census-side cells are not measured"

// checkFleet reads f over the sources census reads (fleetFlags.sources:
// the same verification, refused at the first source that does not
// verify): register-side predictions on the fleet's totals, not measurable
// where any source alone cannot measure them (protocol.CheckFleet). The
// file's seal may be in any source's verified artifact seals, checked
// against that source's operator key; the earliest that verifies counts.
func checkFleet(cmd *cobra.Command, f *protocol.File, out *checkOutput, fl *fleetFlags, p *pins, o seal.VerifyOptions, sum, stopsPath string, witness []string, at, now time.Time, asJSON bool) (*protocol.CheckReport, error, error) {
	if stopsPath != "" || len(witness) > 0 {
		return nil, nil, fail(exitUsage, "a reading over several --bundle/--register takes no --stops or --witness: a stops.json and the schedulers' records are one machine's (check each machine's on its own)")
	}
	srcs, opened, loose, done, err := fl.sources(cmd, p, asJSON)
	defer done()
	if err != nil {
		return nil, nil, err
	}
	if err := census.Distinct(srcs); err != nil {
		return nil, nil, fail(exitUsage, "%v: each source is counted once", err)
	}
	each := make([]census.RegisterSource, len(srcs))
	ps := make([]protocol.FleetSource, len(srcs))
	fo := &checkFleetOut{Sources: []checkFleetSource{}}
	keys := map[string]bool{}
	for i, s := range srcs {
		each[i] = s.Register
		id := census.SourceID(s.RegisterID)
		ps[i] = protocol.FleetSource{ID: id, Each: s.Register}
		fo.Sources = append(fo.Sources, checkFleetSource{Source: id, KeyFingerprint: s.KeyFingerprint, KeyFrom: s.KeyFrom,
			Entries: s.Entries, Sealed: s.Sealed, Unsealed: s.Unsealed})
		keys[s.KeyFingerprint] = true
	}
	fo.Keys = len(keys)
	stops := &protocol.Stops{Source: "the fleet", HarnessReason: fleetStopsReason, HumanReason: fleetStopsReason}
	rep, err := protocol.CheckFleet(f, census.FleetEntries(each), ps, stops, at, now)
	if err != nil {
		return nil, nil, fail(exitError, "%v", err)
	}
	// Entries after a source's last seal were not read: any cut-off that
	// includes one is not_sealed (First zero: their times are unknown).
	var u protocol.Unsealed
	unknown := false
	for _, v := range opened {
		if v.Unsealed == 0 {
			continue
		}
		u.N += v.Unsealed
		unknown = unknown || v.FirstUnsealed.IsZero()
		if !v.FirstUnsealed.IsZero() && (u.First.IsZero() || v.FirstUnsealed.Before(u.First)) {
			u.First = v.FirstUnsealed
		}
	}
	if unknown {
		u.First = time.Time{}
	}
	protocol.MarkUnsealed(rep, u)
	pre, status := fleetSeal(opened, srcs, sum, o.Rekor)
	protocol.Preregister(rep, pre, now)
	out.Seal, out.Fleet = status, fo
	var sealed, unsealed int64
	for _, s := range srcs {
		sealed += s.Sealed
		unsealed += s.Unsealed
	}
	out.Verified = fmt.Sprintf("%d sources, each verified before it was read (chain and seals, %d operator keys): %d entries under verified seals are read, %d after the last seal of their source are not", len(srcs), fo.Keys, sealed, unsealed)
	out.OperatorPinned, out.OperatorKeyFrom = len(loose) == 0, "each source's (fleet.sources)"
	if fo.Keys == 1 {
		out.OperatorKey = srcs[0].KeyFingerprint
	}
	unpinned := looseErr(loose)
	if unpinned != nil {
		out.NotPinned = unpinned.Error()
	}
	return rep, unpinned, nil
}

// fleetSeal finds the protocol file's seal among the sources' verified
// artifact seals (protocolSeal, each against its own source's key): the
// earliest that verifies, else the first source's reason it has none.
func fleetSeal(opened []*verified, srcs []census.FleetSource, sum string, rk *seal.RekorKey) (protocol.Seal, string) {
	var found, missing protocol.Seal
	var foundStatus, missingStatus string
	for i, v := range opened {
		pre, status := protocolSeal(context.Background(), v.Artifacts, sum, v.Operator, rk)
		status = census.SourceID(srcs[i].RegisterID) + ": " + status
		if !pre.Integrated.IsZero() {
			if found.Integrated.IsZero() || pre.Integrated.Before(found.Integrated) {
				found, foundStatus = pre, status
			}
			continue
		}
		// A seal that does not verify (or is pending) says more than none.
		if missingStatus == "" || missing.Missing == "never sealed" && pre.Missing != "never sealed" {
			missing, missingStatus = pre, status
		}
	}
	if !found.Integrated.IsZero() {
		return found, foundStatus
	}
	return missing, missingStatus
}

// printCheckFleet lists a fleet reading's sources.
func printCheckFleet(w io.Writer, fo *checkFleetOut) {
	if fo == nil {
		return
	}
	fmt.Fprintf(w, "  fleet: %d sources sealed by %d operator keys\n", len(fo.Sources), fo.Keys)
	for _, s := range fo.Sources {
		fmt.Fprintf(w, "    %s  key %s (%s)  %d entries (%d sealed)\n", s.Source, s.KeyFingerprint, s.KeyFrom, s.Entries, s.Sealed)
	}
}
