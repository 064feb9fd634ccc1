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
	// Ran: an outcome entry (PostToolUse) for the call's tool_use_id
	// follows it: the call is known to have run.
	Ran bool
	// Journaled: the entry came into the chain from the fallback journal,
	// which any process of the operator's user can write (its reason
	// carries the merge's "[journaled" mark, covered by the hash).
	Journaled bool
}

// JournaledMark is what a merged journal line's reason carries.
const JournaledMark = "[journaled"

// SessionFacts returns the newest window entries of session that left
// facts and whose facts contain needle ("" : all of them), denies
// included, newest first, with whether each is known to have run (package
// session decides what counts). It walks the partial
// (session_id, seq) index of entries with facts backwards and reads at
// most window rows, whatever the register's size; the needle is tested by
// SQLite, so only the rows that may hold the answer come back. ctx bounds
// it (SQLite is interrupted when ctx ends). A register older than schema
// v4 has no facts: nil, nil.
func (r *Register) SessionFacts(ctx context.Context, session string, window int, needle string) ([]SessionFact, error) {
	if ok, err := r.mayHaveFacts(session, window); !ok {
		return nil, err
	}
	rows, err := r.db.QueryContext(ctx, `SELECT f.seq, f.decision, f.facts,
		f.tool_use_id != '' AND EXISTS (SELECT 1 FROM entries o INDEXED BY entries_tool_use_id
			WHERE o.tool_use_id = f.tool_use_id AND o.kind = 'outcome' AND o.seq > f.seq),
		instr(f.reason, ?) > 0
		FROM (SELECT seq, decision, facts, tool_use_id, reason FROM entries INDEXED BY entries_session_facts
		 WHERE session_id = ? AND facts != '' ORDER BY seq DESC LIMIT ?) f
		WHERE instr(f.facts, ?) > 0 ORDER BY f.seq DESC`, JournaledMark, session, window, needle)
	if err != nil {
		return nil, fmt.Errorf("register: session look-up: %w", err)
	}
	defer rows.Close()
	var out []SessionFact
	for rows.Next() {
		var f SessionFact
		if err := rows.Scan(&f.Seq, &f.Decision, &f.Facts, &f.Ran, &f.Journaled); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// WindowFact is a SessionFact with the call's tool_use_id.
type WindowFact struct {
	SessionFact
	ToolUseID string
}

// SessionWindow is the session's window as the hook's look-up walks it
// just before entry before was appended: its newest window entries with
// facts (denies included: they take their place in the window), newest
// first, each with whether an outcome before entry before says it ran.
// Replay reads it to rebuild a window it dropped.
func (r *Register) SessionWindow(ctx context.Context, session string, window int, before int64) ([]WindowFact, error) {
	if ok, err := r.mayHaveFacts(session, window); !ok {
		return nil, err
	}
	rows, err := r.db.QueryContext(ctx, `SELECT f.seq, f.decision, f.facts, f.tool_use_id,
		f.tool_use_id != '' AND EXISTS (SELECT 1 FROM entries o INDEXED BY entries_tool_use_id
			WHERE o.tool_use_id = f.tool_use_id AND o.kind = 'outcome' AND o.seq > f.seq AND o.seq < ?),
		instr(f.reason, ?) > 0
		FROM entries f INDEXED BY entries_session_facts
		WHERE f.session_id = ? AND f.facts != '' AND f.seq < ? ORDER BY f.seq DESC LIMIT ?`, before, JournaledMark, session, before, window)
	if err != nil {
		return nil, fmt.Errorf("register: session window: %w", err)
	}
	defer rows.Close()
	var out []WindowFact
	for rows.Next() {
		var f WindowFact
		if err := rows.Scan(&f.Seq, &f.Decision, &f.Facts, &f.ToolUseID, &f.Ran, &f.Journaled); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// mayHaveFacts: a look-up of session's window can find anything (a session
// named, a window, a schema with facts: v4 and later).
func (r *Register) mayHaveFacts(session string, window int) (bool, error) {
	if session == "" || window <= 0 {
		return false, nil
	}
	v, err := r.schemaVersion()
	return err == nil && v >= 4, err
}
