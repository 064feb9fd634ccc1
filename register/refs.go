package register

// EachLatestGrade calls fn once per graded entry, in the order of the
// entry graded, with the latest grade of it (its sequence number) and how
// many grades of it came earlier. A grade counts only when it refers to an
// earlier entry (sentinel appends no other). SQLite orders the grade
// entries by (ref, seq) through the kind index and its sorter, which spills
// to a temporary file past its cache: memory does not grow with the number
// of grades, where a Go map of the latest grade of each flag did.
func (r *Register) EachLatestGrade(fn func(ref, seq int64, earlier int) error) error {
	rows, err := r.db.Query(`SELECT ref, seq FROM entries INDEXED BY entries_kind
		WHERE kind = ? AND ref >= 1 AND ref < seq ORDER BY ref, seq`, KindGrade)
	if err != nil {
		return r.wrap(err)
	}
	defer rows.Close()
	var ref, seq int64
	n := 0
	for i := 1; rows.Next(); i++ {
		var rf, sq int64
		if err := rows.Scan(&rf, &sq); err != nil {
			return r.wrap(err)
		}
		if rf != ref && n > 0 {
			if err := fn(ref, seq, n-1); err != nil {
				return err
			}
			n = 0
		}
		ref, seq = rf, sq
		n++
		r.report(i, rf)
	}
	if err := rows.Err(); err != nil {
		return r.wrap(err)
	}
	if n > 0 {
		return fn(ref, seq, n-1)
	}
	return nil
}

// DecisionLookup returns of, which names through the tool_use_id index the
// decision an outcome entry belongs to: the latest decision or error entry
// with its tool_use_id before it, else the first after it (an outcome can
// be appended before its decision when the decision went through the
// journal); 0 when there is none. done releases the prepared query.
func (r *Register) DecisionLookup() (of func(toolUseID string, seq int64) (int64, error), done func(), err error) {
	st, err := r.db.Prepare(`SELECT coalesce(
		(SELECT max(seq) FROM entries INDEXED BY entries_tool_use_id WHERE tool_use_id = ?1 AND +kind IN ('decision', 'error') AND seq < ?2),
		(SELECT min(seq) FROM entries INDEXED BY entries_tool_use_id WHERE tool_use_id = ?1 AND +kind IN ('decision', 'error') AND seq > ?2),
		0)`)
	if err != nil {
		return nil, nil, r.wrap(err)
	}
	return func(id string, seq int64) (int64, error) {
		if id == "" {
			return 0, nil
		}
		var d int64
		if err := st.QueryRow(id, seq).Scan(&d); err != nil {
			return 0, r.wrap(err)
		}
		return d, nil
	}, func() { st.Close() }, nil
}
