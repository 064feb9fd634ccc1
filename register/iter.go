package register

import (
	"database/sql"
	"errors"
)

// QueryEach is Query streamed: fn gets each entry matching f, newest
// first, one at a time, so that memory does not grow with the register
// (log -n 0 over a million entries). fn must not keep e; if it returns an
// error, QueryEach stops and returns it.
func (r *Register) QueryEach(f Filter, fn func(e *Entry) error) error {
	q, args := f.query(r)
	rows, err := r.db.Query(q, args...)
	if err != nil {
		return r.wrap(err)
	}
	defer rows.Close()
	var e Entry
	for n := 1; rows.Next(); n++ {
		e = Entry{}
		if err := scanEntry(rows, &e); err != nil {
			return r.wrap(err)
		}
		r.report(n, e.Seq)
		if err := fn(&e); err != nil {
			return err
		}
	}
	return r.wrap(rows.Err())
}

// SetProgress makes the register's long reads (Each, Verify, VerifyAfter,
// EachChecked, QueryEach and the joins) call fn now and then, from the
// reading goroutine, with the sequence number of the entry they reached:
// ascending, but descending for QueryEach. A terminal's progress bar is
// drawn from it (cmd/sentinel); nil turns it off.
func (r *Register) SetProgress(fn func(seq int64)) { r.progress = fn }

// ReportProgress tells the progress function (SetProgress) that a read
// done outside the register's own loops (a walk by sequence number) has
// reached entry seq.
func (r *Register) ReportProgress(seq int64) {
	if r.progress != nil {
		r.progress(seq)
	}
}

// report calls the progress function for every 1024th row n.
func (r *Register) report(n int, seq int64) {
	if r.progress != nil && n%1024 == 0 {
		r.progress(seq)
	}
}

// DeniesThatRan calls fn, in sequence order of the outcome, for every
// outcome entry after seq whose tool_use_id is that of a denied decision:
// a breach (the harness ran a call the sentinel denied). It reads only the
// rows the tool_use_id index finds, not the register.
func (r *Register) DeniesThatRan(after int64, fn func(deny, outcome *Entry) error) error {
	// CROSS JOIN fixes the plan: the denies by their index, then each one's
	// outcome by the tool_use_id index ("+" keeps SQLite off the kind
	// index, which would scan every outcome entry).
	rows, err := r.db.Query(`SELECT d.seq, o.seq FROM entries d CROSS JOIN entries o
		ON o.tool_use_id = d.tool_use_id AND +o.kind = 'outcome'
		WHERE d.decision = 'deny' AND +d.kind IN ('decision', 'error') AND d.tool_use_id != ''
		AND (o.seq > ? OR d.seq > ?) ORDER BY o.seq, d.seq`, after, after)
	if err != nil {
		return r.wrap(err)
	}
	var pairs [][2]int64 // read first: Get needs the connection the rows hold
	for rows.Next() {
		var p [2]int64
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			rows.Close()
			return r.wrap(err)
		}
		pairs = append(pairs, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return r.wrap(err)
	}
	for _, p := range pairs {
		d, err := r.Get(p[0])
		if err != nil {
			return err
		}
		o, err := r.Get(p[1])
		if err != nil {
			return err
		}
		if err := fn(d, o); err != nil {
			return err
		}
	}
	return nil
}

// VerifyAfter checks only what was appended after entry seq, whose hash
// an earlier full Verify found to be hash (a checkpoint): entry seq must
// still carry that hash, and every later entry must hash and link
// correctly from it. Entries before seq are not read again, so the cost is
// that of the new entries; a full Verify is what checks them.
func (r *Register) VerifyAfter(seq int64, hash string) Report {
	v := verifier{rep: Report{Entries: seq, Head: hash}, seq: seq, good: seq}
	e, err := r.Get(seq)
	switch {
	case err != nil:
		v.fail(seq, ProblemDecode, "entry %d (verified before) cannot be read: %v", seq, err)
		return v.rep
	case e.Hash != hash:
		v.fail(seq, ProblemContent, "entry %d changed since it was verified: its hash is %s, was %s", seq, e.Hash, hash)
		return v.rep
	}
	err = r.stream(seq+1, func(e *Entry, err error) bool {
		if err != nil {
			v.fail(v.seq+1, ProblemDecode, "entry %d: cannot be read: %v", v.seq+1, err)
			return false
		}
		return v.check(e)
	})
	if err != nil && v.rep.Problem == nil {
		v.rep.Problem = &Problem{Seq: v.seq + 1, Kind: ProblemDecode, Msg: r.wrap(err).Error()}
	}
	return v.rep
}

// RanLookup returns ran, which says through the tool_use_id index whether
// a call has an outcome entry (it ran), one prepared query per call; done
// releases it.
func (r *Register) RanLookup() (ran func(toolUseID string) (bool, error), done func(), err error) {
	st, err := r.db.Prepare(`SELECT 1 FROM entries INDEXED BY entries_tool_use_id WHERE tool_use_id = ? AND kind = 'outcome' LIMIT 1`)
	if err != nil {
		return nil, nil, r.wrap(err)
	}
	return func(id string) (bool, error) {
		var one int
		switch err := st.QueryRow(id).Scan(&one); {
		case errors.Is(err, sql.ErrNoRows):
			return false, nil
		case err != nil:
			return false, r.wrap(err)
		}
		return true, nil
	}, func() { st.Close() }, nil
}
