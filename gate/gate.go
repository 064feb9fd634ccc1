// Package gate makes the must-keep gate bind: the state of the last gate
// run (gate.json in the state directory) says which configuration failed
// the operator's must-keep file, and the hook holds the affected rules
// closed for it until the operator accepts the configuration. The state is
// small and read once per call (microseconds); it is a cache of a register
// entry (kind "gate"), which is what makes an edit of it evident: doctor
// compares the two.
package gate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

// File is the gate state's name in the state directory; MustKeepFile the
// operator's must-keep list's in the config directory.
const (
	File         = "gate.json"
	MustKeepFile = "must-keep.txt"
	// EntryKind is the register entry kind that records each gate run and
	// each acceptance.
	EntryKind = "gate"
)

// Statuses.
const (
	Passed   = "passed"   // the configuration keeps every must-keep entry denied
	Failed   = "failed"   // it loses some: the hook holds their rules closed
	Accepted = "accepted" // it failed, and the operator accepted it explicitly
)

// maxState bounds the read: the agent can replace the file.
const maxState = 64 << 10

// State is the last gate run.
type State struct {
	ConfigHash string    `json:"config_hash"` // judge.CatalogHashFor(the configuration replayed)
	Status     string    `json:"status"`
	Rules      []string  `json:"rules"`      // rules of the lost entries (held when failed)
	KeepRules  []string  `json:"keep_rules"` // rules of every must-keep entry (held for an unchecked configuration)
	MustKeep   string    `json:"must_keep"`  // sha256 of the must-keep file
	Seq        int64     `json:"seq"`        // the register entry recording this state
	EntryHash  string    `json:"entry_hash"`
	Time       time.Time `json:"time"`
}

// Load reads the state; nil and no error when there is none (no gate).
func Load(stateDir string) (*State, error) {
	data, err := safefile.ReadFile(filepath.Join(stateDir, File), maxState)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", File, err)
	}
	switch s.Status {
	case Passed, Failed, Accepted:
	default:
		return nil, fmt.Errorf("%s: status %q", File, s.Status)
	}
	return &s, nil
}

// Save writes the state atomically.
func Save(stateDir string, s *State) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(stateDir, ".gate-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(stateDir, File))
}

// Reason is the register entry's text of the state: all of it but the
// entry's own number, hash and time, so that the hook and doctor can tell
// a cache edited in place from the entry it names.
func (s *State) Reason() string {
	return fmt.Sprintf("must-keep gate %s: config %s, must-keep sha256 %s, held %s, keep rules %s",
		s.Status, s.ConfigHash, s.MustKeep, strings.Join(s.Rules, ","), strings.Join(s.KeepRules, ","))
}

// Expect is what the register's newest gate entry must be for a decision
// made from this cache to stand (s nil: no gate entry at all). The hook's
// append checks it in its transaction (register.AppendExpecting), so a
// gate.json deleted, or edited by a one-liner, cannot release a held rule.
func (s *State) Expect() *register.Expect {
	if s == nil {
		return &register.Expect{Kind: EntryKind}
	}
	return &register.Expect{Kind: EntryKind, Seq: s.Seq, Hash: s.EntryHash, Label: s.Status, Reason: s.Reason()}
}

// Held are the rules the hook holds closed under the configuration with
// hash cfgHash, and why. A configuration other than the one the gate ran
// on is unchecked: every must-keep rule is held until `sentinel gate check`
// runs on it (else one more edit would escape a failed gate).
func (s *State) Held(cfgHash string) ([]string, string) {
	switch {
	case s.ConfigHash != cfgHash:
		return s.KeepRules, fmt.Sprintf("the configuration (%s) changed since the must-keep gate last ran; run 'sentinel gate check'", short(cfgHash))
	case s.Status == Failed:
		rules := s.Rules
		if len(rules) == 0 {
			rules = s.KeepRules
		}
		return rules, fmt.Sprintf("the configuration %s failed the must-keep gate; 'sentinel gate accept' accepts it", short(cfgHash))
	}
	return nil, ""
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Hold applies the gate to a decision made under the operator's
// configuration (hash cfgHash): for each held rule that fires under the
// shipped defaults (judged by defaults, only when something is held), the
// rule's hit is added with the gate's reason, and the verdict is at least
// the rule's. A state that cannot be read holds every rule (fail closed).
// The state is a cache: the returned Expect is the register entry it must
// match for the decision to stand (nil when everything was held anyway).
func Hold(d judge.Decision, stateDir, cfgHash string, defaults func() judge.Decision) (judge.Decision, *register.Expect) {
	s, err := Load(stateDir)
	if s == nil && err == nil {
		return d, s.Expect()
	}
	x := s.Expect()
	if err != nil {
		x = nil
	}
	var held []string
	why := ""
	all := err != nil
	if all {
		why = fmt.Sprintf("the must-keep gate's state cannot be read (%v): every rule is held at its shipped decision", err)
	} else if held, why = s.Held(cfgHash); len(held) == 0 {
		return d, x
	}
	for _, h := range defaults().Hits {
		if !all && !slices.Contains(held, h.RuleID) {
			continue
		}
		if slices.ContainsFunc(d.Hits, func(x judge.Hit) bool { return x.RuleID == h.RuleID }) {
			continue
		}
		h.Reason += " (held closed: " + why + ")"
		if h.Verdict >= d.Verdict {
			d.Hits = append([]judge.Hit{h}, d.Hits...)
			d.Verdict, d.Decision = h.Verdict, h.Decision
		} else {
			d.Hits = append(d.Hits, h)
		}
	}
	return d, x
}

// InUse reports whether a must-keep gate may be in force although no
// state says so: the operator's must-keep file exists (the hook then
// cannot release a rule on a decision it could not check).
func InUse(configDir string) bool {
	if configDir == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(configDir, MustKeepFile))
	return err == nil
}
