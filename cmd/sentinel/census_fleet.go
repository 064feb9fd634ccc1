package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sentinel-guard/sentinel/census"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// fleetFlags are census's flags for a census over several sources; the
// keys are pinned with the census's pins (verified.go) or per source.
type fleetFlags struct {
	bundles   []string
	registers []string // --register, when given more than once
}

// on: a fleet census is asked for (any --bundle, or --register twice).
func (f *fleetFlags) on() bool { return len(f.bundles) > 0 || len(f.registers) > 1 }

// add defines --bundle (usage says what is done with one); --register is
// each command's own (census's default register is the operator's).
func (f *fleetFlags) add(fs *pflag.FlagSet, usage string) {
	fs.StringArrayVar(&f.bundles, "bundle", nil, usage)
}

// censusBundleUsage is census's --bundle.
const censusBundleUsage = "count this exported bundle (sentinel export --fields all), verified first; PATH@SHA256:<hex> pins its operator key; repeatable: one census over a fleet, a row per source"

// runCensus is census.Run, or census.RunFleet over the verified sources.
// unpinned is the not_pinned error to exit with once the census is
// written, when a source was held only against its own key.
func runCensus(cmd *cobra.Command, o census.Options, f *fleetFlags, p *pins, asJSON bool) (rep *census.Report, unpinned, err error) {
	if !f.on() {
		rep, err = census.Run(o)
		return rep, nil, err
	}
	if len(o.TranscriptDirs) > 0 || len(o.Witness) > 0 {
		return nil, nil, fail(exitUsage, "a census over --bundle or several --register reads no transcripts or witnesses: they stay on each machine (run the census there)")
	}
	srcs, _, loose, done, err := f.sources(cmd, p, asJSON)
	defer done()
	if err != nil {
		return nil, nil, err
	}
	rep, err = census.RunFleet(srcs, o)
	if errors.Is(err, census.ErrSameSource) {
		return nil, nil, fail(exitUsage, "%v: each source is counted once", err)
	}
	if err == nil {
		unpinned = looseErr(loose)
	}
	return rep, unpinned, err
}

// looseErr is the not_pinned error of a fleet read with sources held only
// against their own key (nil when every source was pinned).
func looseErr(loose []string) error {
	if len(loose) == 0 {
		return nil
	}
	return failCode("not_pinned", "NOT PINNED: %s held only against its own operator key: pin each with PATH@SHA256:<hex> (the fingerprint its operator published), or --operator-fingerprint", strings.Join(loose, ", "))
}

// pinSource cuts a source's own pin (PATH@SHA256:<hex>) from arg and holds
// the source to it instead of the command's pins.
func pinSource(base seal.VerifyOptions, arg string) (string, seal.VerifyOptions, error) {
	path, fp, err := splitPin(arg)
	if err != nil {
		return "", base, err
	}
	if fp != "" {
		base.Operator, base.Fingerprint, base.Pinned, base.OperatorFrom = nil, fp, true, "pinned per source"
	}
	return path, base, nil
}

// splitPin cuts a source's own pin, PATH@SHA256:<hex>, from its path.
func splitPin(arg string) (path, fingerprint string, err error) {
	i := strings.LastIndex(strings.ToLower(arg), "@sha256:")
	if i < 0 {
		return arg, "", nil
	}
	fp, err := seal.ParseFingerprint(arg[i+1:])
	if err != nil {
		return "", "", fail(exitUsage, "%s: %v", arg, err)
	}
	return arg[:i], fp, nil
}

// sources verifies every bundle and register with openVerified (the one
// verification sentinel verify does) and refuses the census at the first
// that does not verify: a fleet total with one forged source in it is a
// forged total. Only the entries its verified seals cover are counted.
func (f *fleetFlags) sources(cmd *cobra.Command, p *pins, asJSON bool) (srcs []census.FleetSource, opened []*verified, loose []string, done func(), err error) {
	done = func() {
		for _, v := range opened {
			v.Close()
		}
	}
	base, _, err := p.options()
	if err != nil {
		return nil, nil, nil, done, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	type source struct{ arg, bundle, register string }
	var all []source
	for _, b := range f.bundles {
		all = append(all, source{arg: b, bundle: b})
	}
	for _, r := range f.registers {
		all = append(all, source{arg: r, register: r})
	}
	for _, s := range all {
		path, o, err := pinSource(base, s.arg)
		if err != nil {
			return nil, nil, nil, done, err
		}
		kind := "bundle"
		bundlePath, regPath := path, ""
		if s.register != "" {
			bundlePath, regPath, kind = "", path, "register"
			if err := sourceKey(&o, regPath); err != nil {
				return nil, nil, nil, done, err
			}
		}
		v, err := openVerified(ctx, cmd, bundlePath, regPath, false, o, p, "verifying "+path, asJSON)
		if err != nil {
			return nil, nil, nil, done, err
		}
		opened = append(opened, v)
		withheld := int64(0)
		if err := v.Each(func(e register.Entry) error {
			if seal.Withheld(&e) {
				withheld++
			}
			return nil
		}); err != nil {
			return nil, nil, nil, done, fail(exitFailure, "%s: %v", path, err)
		}
		if withheld > 0 {
			return nil, nil, nil, done, fail(exitUsage, "%s withholds the fields of %d entries: a census needs their decisions (export it with sentinel export --fields all)", path, withheld)
		}
		from := "pinned"
		if !o.Pinned {
			from = kind
			loose = append(loose, path)
		}
		rep := v.Rep
		srcs = append(srcs, census.FleetSource{RegisterID: rep.RegisterID, KeyFingerprint: rep.OperatorKey, KeyFrom: from,
			Entries: rep.Entries, Sealed: int64(rep.Sealed), Unsealed: int64(rep.Unsealed), Register: v.Each})
	}
	return srcs, opened, loose, done, nil
}

// sourceKey: another machine's register is checked against the key its
// own seals name (the local key beside this machine's signing key would be
// the wrong operator), held to the pinned key or fingerprint if any.
func sourceKey(o *seal.VerifyOptions, regPath string) error {
	if o.Operator != nil {
		return nil
	}
	reg, err := register.OpenReadOnly(regPath)
	if err != nil {
		return registerError(regPath, err)
	}
	defer reg.Close()
	recs, err := seal.Records(reg.DB(), seal.SubjectRegister)
	if err != nil {
		return fail(exitError, "%s: reading the seals: %v", regPath, err)
	}
	for i := len(recs) - 1; i >= 0; i-- {
		k, err := seal.ParsePublicKey([]byte(recs[i].PublicKey))
		if err != nil {
			continue
		}
		if o.Fingerprint != "" && seal.Fingerprint(k) != o.Fingerprint {
			return fail(exitFailure, "%s is sealed by operator key %s, not the pinned %s", regPath, seal.Fingerprint(k), o.Fingerprint)
		}
		o.Operator = k
		if !o.Pinned {
			o.OperatorFrom = "the register's own seals"
		}
		return nil
	}
	return nil
}

// printFleet lists the sources of a fleet census.
func printFleet(w io.Writer, fl *census.Fleet) {
	if fl == nil {
		return
	}
	fmt.Fprintf(w, "\nfleet: %d sources sealed by %d operator keys\n", len(fl.Sources), fl.Keys)
	for _, s := range fl.Sources {
		var d, a int64
		if r := s.Register; r != nil {
			d, a = r.Deny.Attended+r.Deny.Unattended, r.Ask.Attended+r.Ask.Unattended
		}
		key := s.KeyFingerprint
		if i := strings.IndexByte(key, ':'); i >= 0 && len(key) > i+17 {
			key = key[:i+17] + "…"
		}
		fmt.Fprintf(w, "  %s  key %s (%s)  %d entries (%d sealed)  %d denies, %d asks\n", s.Source, key, s.KeyFrom, s.Entries, s.Sealed, d, a)
	}
}

// fleetCheck says on the page what verifying a fleet's sources proved.
func fleetCheck(pc *census.PageCheck, fl *census.Fleet) {
	if pc == nil || fl == nil {
		return
	}
	var sealed, unsealed int64
	var loose int
	for _, s := range fl.Sources {
		sealed += s.Sealed
		unsealed += s.Unsealed
		if s.KeyFrom != "pinned" {
			loose++
		}
	}
	pc.Register = fmt.Sprintf("%d sources, each verified before it was read (chain and seals, %d operator keys): %d entries under verified seals are counted, %d after the last seal of their source are not", len(fl.Sources), fl.Keys, sealed, unsealed)
	if loose > 0 {
		pc.Register += fmt.Sprintf("; %d sources were held only against their own key (not pinned)", loose)
	}
}
