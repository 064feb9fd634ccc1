package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinel-guard/sentinel/gate"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// checkGate: the must-keep gate binds (gate/). Doctor fails while the live
// configuration failed the gate or was never checked, and when gate.json
// does not match the register entry it names (an edited cache).
func checkGate(rep *doctorReport) {
	const name = "must-keep gate"
	cfgDir, err1 := paths.ConfigDir()
	stateDir, err2 := paths.StateDir()
	if err1 != nil || err2 != nil {
		return
	}
	_, mkErr := os.Stat(filepath.Join(cfgDir, gate.MustKeepFile))
	s, err := gate.Load(stateDir)
	switch {
	case err != nil:
		rep.add(name, doctorFail, fmt.Sprintf("%v: the hook holds every rule at its shipped decision", err), "run 'sentinel gate check'")
		return
	case s == nil:
		if e := latestGate(); e != nil {
			rep.add(name, doctorFail, fmt.Sprintf("%s is missing but the register's gate entry %d says %s (deleted?): the hook answers every call fail-closed", gate.File, e.Seq, e.Label),
				"run 'sentinel gate check'; look at who removed the file")
			return
		}
		if mkErr != nil {
			return // no gate configured
		}
		rep.add(name, doctorFail, "a must-keep file exists but the gate never ran", "run 'sentinel gate check'")
		return
	}
	if why := gateForged(s); why != "" {
		rep.add(name, doctorFail, fmt.Sprintf("%s does not match the register: %s (edited?)", gate.File, why), "run 'sentinel gate check'; look at who wrote the file")
		return
	}
	cfg, _, err := replayConfig("")
	if err != nil {
		rep.add(name, doctorFail, fmt.Sprintf("configuration: %v", err), "")
		return
	}
	live := judge.CatalogHashFor(cfg)
	switch {
	case s.ConfigHash != live:
		rep.add(name, doctorFail, fmt.Sprintf("the configuration changed since the gate ran (entry %d): the hook holds %v", s.Seq, s.KeepRules), "run 'sentinel gate check'")
	case s.Status == gate.Failed:
		rep.add(name, doctorFail, fmt.Sprintf("configuration %s FAILED the gate (entry %d): the hook holds %v closed", short12(live), s.Seq, s.Rules),
			"undo the change, or 'sentinel gate accept' after reading 'sentinel gate check'")
	default:
		rep.add(name, doctorOK, fmt.Sprintf("configuration %s %s (entry %d)", short12(live), s.Status, s.Seq), "")
	}
}

// gateForged compares gate.json with the register entry it names.
func gateForged(s *gate.State) string {
	p, err := paths.RegisterPath()
	if err != nil {
		return err.Error()
	}
	reg, err := register.OpenReadOnly(p)
	if err != nil {
		return err.Error()
	}
	defer reg.Close()
	e, err := reg.Get(s.Seq)
	switch {
	case err != nil:
		return fmt.Sprintf("entry %d: %v", s.Seq, err)
	case e.Kind != gate.EntryKind || e.Hash != s.EntryHash || e.Label != s.Status || e.Reason != s.Reason():
		return fmt.Sprintf("entry %d is not this gate state", s.Seq)
	}
	// A later gate entry supersedes this one: the cache must be the last.
	if last, err := reg.LatestOfKind(gate.EntryKind); err == nil && last != nil && last.Seq != s.Seq {
		return fmt.Sprintf("entry %d records a later gate run", last.Seq)
	}
	return ""
}

// latestGate is the register's newest gate entry (nil: none, or no register).
func latestGate() *register.Entry {
	p, err := paths.RegisterPath()
	if err != nil {
		return nil
	}
	reg, err := register.OpenReadOnly(p)
	if err != nil {
		return nil
	}
	defer reg.Close()
	e, _ := reg.LatestOfKind(gate.EntryKind)
	return e
}

func short12(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
