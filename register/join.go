package register

import (
	"database/sql"
	"math"
	"time"
)

// The joins of decisions to their outcome entries run in SQLite, through
// the tool_use_id index, so that memory does not grow with the register: a
// Go map of every call is 400 MiB at a million entries (docs/cli.md,
// "Scale"). Each decision row carries the outcome a correlated subquery
// found for it; nothing is held between rows.

// Joined is one decision or error entry and the outcome entry joined to it.
type Joined struct {
	Seq       int64
	Time      time.Time
	Kind      string
	Tool      string
	ToolUseID string
	Decision  string
	Attended  bool
	Rules     []string
	// OutcomeSeq is the outcome entry joined to the decision (0: none);
	// Failed says its label is LabelRanFailed.
	OutcomeSeq int64
	Failed     bool
}

// TimeWindow bounds decisions by their time: Since inclusive, Until
// exclusive; a zero time does not bound.
type TimeWindow struct{ Since, Until time.Time }

// micros turns the window into bounds on time_us (stored microseconds):
// t >= since exactly when time_us >= ceil(since in µs), and the same for until.
func (w TimeWindow) micros() (lo, hi int64) {
	ceil := func(t time.Time) int64 {
		us := t.UnixMicro()
		if time.UnixMicro(us).Before(t) {
			us++
		}
		return us
	}
	lo, hi = math.MinInt64, math.MaxInt64
	if !w.Since.IsZero() {
		lo = ceil(w.Since)
	}
	if !w.Until.IsZero() {
		hi = ceil(w.Until)
	}
	return lo, hi
}

// judgedIn is the predicate, on alias x, of a decision the joins count:
// a decision or error entry with a decision, in the window ?1..?2.
func judgedIn(x string, flagsOnly bool) string {
	d := `+` + x + `.decision != ''`
	if flagsOnly {
		d = `+` + x + `.decision IN ('ask', 'deny')`
	}
	return `+` + x + `.kind IN ('decision', 'error') AND ` + d + ` AND +` + x + `.time_us >= ?1 AND +` + x + `.time_us < ?2`
}

// JoinOutcomes calls fn, in sequence order, for every decision and error
// entry with a decision in w, with its outcome: the first outcome entry
// with its tool_use_id after it and before the next such decision with the
// same id (a journal merge can decide an id twice: each keeps its own);
// the first decision of an id also takes an outcome written before it.
// An entry without a tool_use_id has no outcome. fn must not keep j.
func (r *Register) JoinOutcomes(w TimeWindow, fn func(j *Joined) error) error {
	dec := judgedIn("x", false)
	return r.eachJoined(`SELECT d.seq, d.time_us, d.kind, d.tool, d.tool_use_id, d.decision, d.attended, d.rules,
		CASE WHEN d.tool_use_id = '' THEN NULL ELSE (
			SELECT o.seq * 2 + (o.label = ?3) FROM entries o INDEXED BY entries_tool_use_id
			WHERE o.tool_use_id = d.tool_use_id AND +o.kind = 'outcome'
			AND o.seq < coalesce((SELECT min(x.seq) FROM entries x INDEXED BY entries_tool_use_id
				WHERE x.tool_use_id = d.tool_use_id AND x.seq > d.seq AND `+dec+`), 9223372036854775807)
			AND (o.seq > d.seq OR NOT EXISTS (SELECT 1 FROM entries x INDEXED BY entries_tool_use_id
				WHERE x.tool_use_id = d.tool_use_id AND x.seq < d.seq AND `+dec+`))
			ORDER BY o.seq LIMIT 1) END
		FROM entries d NOT INDEXED WHERE `+judgedIn("d", false)+` ORDER BY d.seq`, w, fn)
}

// JoinFlagOutcomes calls fn, in sequence order, for every ask and deny in w
// (decision and error entries), with its outcome the way the census counts
// them: the latest flag of a tool_use_id in w takes the first outcome entry
// with that id anywhere in the register (written before or after it);
// earlier flags of the same id take none. fn must not keep j.
func (r *Register) JoinFlagOutcomes(w TimeWindow, fn func(j *Joined) error) error {
	flag := judgedIn("x", true)
	return r.eachJoined(`SELECT d.seq, d.time_us, d.kind, d.tool, d.tool_use_id, d.decision, d.attended, d.rules,
		CASE WHEN d.tool_use_id = '' OR EXISTS (SELECT 1 FROM entries x INDEXED BY entries_tool_use_id
			WHERE x.tool_use_id = d.tool_use_id AND x.seq > d.seq AND `+flag+`) THEN NULL ELSE (
			SELECT o.seq * 2 + (o.label = ?3) FROM entries o INDEXED BY entries_tool_use_id
			WHERE o.tool_use_id = d.tool_use_id AND +o.kind = 'outcome' ORDER BY o.seq LIMIT 1) END
		FROM entries d NOT INDEXED WHERE `+judgedIn("d", true)+` ORDER BY d.seq`, w, fn)
}

func (r *Register) eachJoined(q string, w TimeWindow, fn func(j *Joined) error) error {
	lo, hi := w.micros()
	rows, err := r.db.Query(q, lo, hi, LabelRanFailed)
	if err != nil {
		return r.wrap(err)
	}
	defer rows.Close()
	var j Joined
	var e Entry
	for n := 1; rows.Next(); n++ {
		var us int64
		var rules string
		var out sql.NullInt64
		j = Joined{}
		if err := rows.Scan(&j.Seq, &us, &j.Kind, &j.Tool, &j.ToolUseID, &j.Decision, &j.Attended, &rules, &out); err != nil {
			return r.wrap(err)
		}
		j.Time = time.UnixMicro(us).UTC()
		e.Seq = j.Seq
		if err := decodeRules(&e, rules); err != nil {
			return err
		}
		j.Rules = e.Rules
		if out.Valid {
			j.OutcomeSeq, j.Failed = out.Int64/2, out.Int64%2 == 1
		}
		r.report(n, j.Seq)
		if err := fn(&j); err != nil {
			return err
		}
	}
	return r.wrap(rows.Err())
}

// OutcomeCounts counts the outcome entries: all of them, those labelled
// LabelRanFailed, and orphans: those without a tool_use_id plus one per
// distinct tool_use_id that no decision or error entry in w carries.
func (r *Register) OutcomeCounts(w TimeWindow) (total, failed, orphans int64, err error) {
	lo, hi := w.micros()
	var noID, lost int64
	err = r.db.QueryRow(`SELECT count(*), coalesce(sum(label = ?), 0), coalesce(sum(tool_use_id = ''), 0)
		FROM entries INDEXED BY entries_kind WHERE kind = 'outcome'`, LabelRanFailed).Scan(&total, &failed, &noID)
	if err != nil {
		return 0, 0, 0, r.wrap(err)
	}
	err = r.db.QueryRow(`SELECT count(DISTINCT o.tool_use_id) FROM entries o INDEXED BY entries_kind
		WHERE o.kind = 'outcome' AND o.tool_use_id != '' AND NOT EXISTS (SELECT 1 FROM entries x INDEXED BY entries_tool_use_id
			WHERE x.tool_use_id = o.tool_use_id AND `+judgedIn("x", false)+`)`, lo, hi).Scan(&lost)
	if err != nil {
		return 0, 0, 0, r.wrap(err)
	}
	return total, failed, noID + lost, nil
}

// EachGrade calls fn for every grade entry, in sequence order, with the
// entry it grades and its label, through the kind index.
func (r *Register) EachGrade(fn func(ref int64, label string) error) error {
	rows, err := r.db.Query(`SELECT ref, label FROM entries INDEXED BY entries_kind WHERE kind = ? ORDER BY seq`, KindGrade)
	if err != nil {
		return r.wrap(err)
	}
	defer rows.Close()
	for rows.Next() {
		var ref int64
		var label string
		if err := rows.Scan(&ref, &label); err != nil {
			return r.wrap(err)
		}
		if err := fn(ref, label); err != nil {
			return err
		}
	}
	return r.wrap(rows.Err())
}

// GradeRefs lists every grade entry, in sequence order, as its sequence
// number and the entry it grades, through the kind index: a pair per
// grade, not a row per entry.
func (r *Register) GradeRefs() ([][2]int64, error) {
	rows, err := r.db.Query(`SELECT seq, ref FROM entries INDEXED BY entries_kind WHERE kind = ? ORDER BY seq`, KindGrade)
	if err != nil {
		return nil, r.wrap(err)
	}
	defer rows.Close()
	var out [][2]int64
	for rows.Next() {
		var p [2]int64
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			return nil, r.wrap(err)
		}
		out = append(out, p)
	}
	return out, r.wrap(rows.Err())
}
