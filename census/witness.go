package census

import (
	"sort"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// A witness is a scheduler's own record of when routines ran (systemd's
// journal, cron's syslog lines, GitHub Actions runs, or plain JSON Lines):
// written by something other than the sentinel, it can say whether an
// unattended ask or deny in the register fell while a routine was live.
// It proves that a run was live at that time; not that the run's work was
// what the register says.

// Witness kinds, as stops.json's witness.kinds names them.
const (
	WitnessSystemd = "systemd-journal"
	WitnessCron    = "cron"
	WitnessGitHub  = "github-actions"
	WitnessJSONL   = "jsonl"
)

// witnessRun is one run. [start, end] is the part the record shows live;
// openStart and openEnd say the run may reach beyond it on that side (a
// start or an end the record does not hold: cron without END lines, a
// GitHub run still in progress, a journal cut in the middle of a run).
type witnessRun struct {
	start, end         time.Time
	openStart, openEnd bool
	sessions           []string // the sessions the record names for the run; nil: not named
}

// Witness is every run read from the witness files, file by file with the
// stretch of time each file's records cover. No name, command or path is
// kept beyond the reading.
type Witness struct {
	kinds      map[string]bool
	files      []*witnessFile
	records    int64
	unreadable int64
}

// witnessFile is one file's runs and the stretch its records cover:
// outside that stretch the file says nothing.
type witnessFile struct {
	runs        []witnessRun
	first, last time.Time
	// Built by index over the runs sorted by start: the latest end of
	// runs[0..i], whether one of them has an open end, and whether one of
	// runs[i..] has an open start.
	maxEnd        []time.Time
	openEndBy     []bool
	openStartFrom []bool
}

func (f *witnessFile) seen(t time.Time) {
	if t.IsZero() {
		return
	}
	if f.first.IsZero() || t.Before(f.first) {
		f.first = t
	}
	if t.After(f.last) {
		f.last = t
	}
}

func (f *witnessFile) add(r witnessRun) {
	if r.end.Before(r.start) {
		r.end = r.start
	}
	f.runs = append(f.runs, r)
}

// index sorts the runs by start for the join.
func (f *witnessFile) index() {
	sort.SliceStable(f.runs, func(i, j int) bool { return f.runs[i].start.Before(f.runs[j].start) })
	n := len(f.runs)
	f.maxEnd = make([]time.Time, n)
	f.openEndBy = make([]bool, n)
	f.openStartFrom = make([]bool, n+1)
	var m time.Time
	open := false
	for i, r := range f.runs {
		if r.end.After(m) {
			m = r.end
		}
		open = open || r.openEnd
		f.maxEnd[i], f.openEndBy[i] = m, open
	}
	for i := n - 1; i >= 0; i-- {
		f.openStartFrom[i] = f.openStartFrom[i+1] || f.runs[i].openStart
	}
}

// Where an entry falls.
const (
	witInside    = "inside"
	witOutside   = "outside"
	witUnchecked = "unchecked"
	witSilent    = "silent" // outside the file's stretch: it says nothing
)

// place says where an entry at t of session falls in this file: inside a
// run the record shows live (and of the same session, where the record
// names sessions); silent when t is outside the stretch the file covers;
// unchecked when a run whose end (started before t) or start (after t)
// the record lacks could reach it; else outside.
func (f *witnessFile) place(t time.Time, session string) string {
	if f.first.IsZero() || t.Before(f.first) || t.After(f.last) {
		return witSilent
	}
	// i: the last run starting at or before t.
	i := sort.Search(len(f.runs), func(i int) bool { return f.runs[i].start.After(t) }) - 1
	for k := i; k >= 0 && !f.maxEnd[k].Before(t); k-- {
		if r := &f.runs[k]; !r.end.Before(t) && sessionOK(r.sessions, session) {
			return witInside
		}
	}
	if (i >= 0 && f.openEndBy[i]) || f.openStartFrom[i+1] {
		return witUnchecked
	}
	return witOutside
}

// place combines the files: inside if one file shows a run live at t;
// else unchecked if one file could hold a run at t it does not show whole;
// else outside if one file covers t; else unchecked (no file covers it).
func (w *Witness) place(t time.Time, session string) string {
	seen := map[string]bool{}
	for _, f := range w.files {
		seen[f.place(t, session)] = true
	}
	switch {
	case seen[witInside]:
		return witInside
	case seen[witUnchecked]:
		return witUnchecked
	case seen[witOutside]:
		return witOutside
	}
	return witUnchecked
}

func sessionOK(named []string, session string) bool {
	if len(named) == 0 || session == "" {
		return true
	}
	for _, s := range named {
		if s == session {
			return true
		}
	}
	return false
}

// WitnessCounts is stops.json's witness: what kinds of record were read,
// how many runs they hold, and where the register's unattended asks and
// denies fall against them. Nothing else of the witness is written.
type WitnessCounts struct {
	Kinds           []string       `json:"kinds"`
	Runs            int64          `json:"runs"`
	Records         int64          `json:"records"`
	UnreadableLines int64          `json:"unreadable_lines"`
	Covers          Window         `json:"covers"` // the stretch the records cover
	Unattended      *WitnessJoined `json:"unattended"`
	Note            string         `json:"note"`
}

// WitnessJoined places the unattended asks and denies in the window.
type WitnessJoined struct {
	Deny WitnessPlace `json:"deny"`
	Ask  WitnessPlace `json:"ask"`
}

// WitnessPlace counts where entries fall. OutsideSeqs are the register
// sequence numbers of those outside any recorded run: reported, never
// dropped (look them up with sentinel log).
type WitnessPlace struct {
	Inside      int64   `json:"inside"`
	Outside     int64   `json:"outside"`
	Unchecked   int64   `json:"unchecked"`
	OutsideSeqs []int64 `json:"outside_seqs"`
}

func (p *WitnessPlace) add(where string, seq int64) {
	switch where {
	case witInside:
		p.Inside++
	case witOutside:
		p.Outside++
		p.OutsideSeqs = append(p.OutsideSeqs, seq)
	default:
		p.Unchecked++
	}
}

// join places one register entry: unattended asks and denies only.
func (w *Witness) join(j *WitnessJoined, e *register.Entry) {
	if e.Attended {
		return
	}
	var p *WitnessPlace
	switch e.Decision {
	case "deny":
		p = &j.Deny
	case "ask":
		p = &j.Ask
	default:
		return
	}
	p.add(w.place(e.Time, strings.ToLower(e.SessionID)), e.Seq)
}

func newWitnessJoined() *WitnessJoined {
	return &WitnessJoined{Deny: WitnessPlace{OutsideSeqs: []int64{}}, Ask: WitnessPlace{OutsideSeqs: []int64{}}}
}

// Counts is what stops.json says of the witness; joined is nil without a
// register.
func (w *Witness) Counts(joined *WitnessJoined) *WitnessCounts {
	c := &WitnessCounts{Kinds: []string{}, Records: w.records,
		UnreadableLines: w.unreadable, Unattended: joined, Note: noteWitness}
	var first, last time.Time
	for _, f := range w.files {
		c.Runs += int64(len(f.runs))
		if !f.first.IsZero() && (first.IsZero() || f.first.Before(first)) {
			first = f.first
		}
		if f.last.After(last) {
			last = f.last
		}
	}
	for k := range w.kinds {
		c.Kinds = append(c.Kinds, k)
	}
	sort.Strings(c.Kinds)
	if !first.IsZero() {
		c.Covers.Since = strp(first.UTC().Format(time.RFC3339))
		c.Covers.Until = strp(last.UTC().Format(time.RFC3339))
	}
	return c
}

// JoinWitness places every unattended ask and deny of entries in the
// window against the witness (for protocol check, which has no census).
func JoinWitness(w *Witness, entries RegisterSource, since, until time.Time) (*WitnessJoined, error) {
	j := newWitnessJoined()
	err := entries(func(e register.Entry) error {
		if (e.Kind == register.KindDecision || e.Kind == register.KindError) && timeIn(e.Time, since, until) {
			w.join(j, &e)
		}
		return nil
	})
	return j, err
}

const noteWitness = "A witness is the scheduler's own record of when routines ran (systemd's journal, cron's log, GitHub Actions, or JSON Lines), written by something other than the sentinel. Inside: the entry's time falls in a run the record shows live (of the same session where the record names one). Outside: no recorded run was live then, and a witness file covers that time (from its first record to its last); such entries are listed by register seq. Unchecked: no witness file covers the time, or a run whose start or end its record lacks could reach it. This proves a run was live, not that the run's work was what the register says."

func witnessNotMeasured(r *Report) []NotMeasured {
	switch {
	case r.Witness == nil:
		return []NotMeasured{{"witness", "No witness was given (--witness): whether the unattended asks and denies fell inside a routine's run is not checked against the scheduler's record."}}
	case r.Witness.Unattended == nil:
		return []NotMeasured{{"witness.unattended", "No register was read: there are no unattended asks or denies to place against the witness."}}
	}
	return nil
}
