package register

import (
	"context"
	"fmt"
)

// SessionFact is one entry's facts as the session's look-up reads them.
type SessionFact struct {
	Seq      int64
	Decision string
	Facts    string
}

// SessionFacts returns the newest window entries of session that left
// facts and whose facts contain needle ("" : all of them), newest first,
// denied calls left out (they did not run). It walks the partial
// (session_id, seq) index of entries with facts backwards and reads at
// most window rows, whatever the register's size; the needle is tested by
// SQLite, so only the rows that may hold the answer come back. ctx bounds
// it (SQLite is interrupted when ctx ends). A register older than schema
// v4 has no facts: nil, nil.
func (r *Register) SessionFacts(ctx context.Context, session string, window int, needle string) ([]SessionFact, error) {
	if session == "" || window <= 0 {
		return nil, nil
	}
	if v, err := r.schemaVersion(); err != nil {
		return nil, err
	} else if v < 4 {
		return nil, nil
	}
	rows, err := r.db.QueryContext(ctx, `SELECT seq, decision, facts FROM
		(SELECT seq, decision, facts FROM entries INDEXED BY entries_session_facts
		 WHERE session_id = ? AND facts != '' ORDER BY seq DESC LIMIT ?)
		WHERE decision != 'deny' AND instr(facts, ?) > 0 ORDER BY seq DESC`, session, window, needle)
	if err != nil {
		return nil, fmt.Errorf("register: session look-up: %w", err)
	}
	defer rows.Close()
	var out []SessionFact
	for rows.Next() {
		var f SessionFact
		if err := rows.Scan(&f.Seq, &f.Decision, &f.Facts); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
