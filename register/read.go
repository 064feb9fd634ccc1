package register

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// entryCols are an entry's columns in scanEntry's order.
var entryCols = []string{"seq", "kind", "time_us", "session_id", "tool_use_id", "cwd", "tool", "input", "salt",
	"commitment", "decision", "rules", "reason", "attended", "permission_mode", "catalog_version",
	"catalog_hash", "version", "ref", "label", "prev_hash", "hash", "facts", "harness"}

// addedIn are the entry columns later migrations added, with the version
// that added each: an older register read without migrating has them
// empty, as the migration's defaults would make them.
var addedIn = map[string]int{"facts": 4, "harness": 5}

// cols lists names as this register can read them: a column its schema
// lacks (a register written by an older sentinel and opened read-only:
// census, verify or log must read it, and only a writer migrates) reads
// as ”.
func (r *Register) cols(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if v, ok := addedIn[n]; ok && r.schema != 0 && r.schema < v {
			out[i] = "''"
		}
	}
	return strings.Join(out, ", ")
}

// selectCols selects every column of an entry, for scanEntry.
func (r *Register) selectCols() string { return "SELECT " + r.cols(entryCols) + " FROM entries" }

// ErrNoEntry is returned by Get for a sequence number not in the register.
var ErrNoEntry = errors.New("no such entry")

type scanner interface{ Scan(dest ...any) error }

// scanEntry reads one row of selectCols into e.
func scanEntry(s scanner, e *Entry) error {
	var us int64
	var rules string
	var input, salt []byte
	err := s.Scan(&e.Seq, &e.Kind, &us, &e.SessionID, &e.ToolUseID, &e.Cwd, &e.Tool, &input, &salt,
		&e.Commitment, &e.Decision, &rules, &e.Reason, &e.Attended, &e.PermissionMode, &e.CatalogVersion,
		&e.CatalogHash, &e.Version, &e.Ref, &e.Label, &e.PrevHash, &e.Hash, &e.Facts, &e.Harness)
	if err != nil {
		return err
	}
	setBinary(e, us, input, salt)
	return decodeRules(e, rules)
}

// setBinary sets the non-text fields shared by both read paths.
func setBinary(e *Entry, us int64, input, salt []byte) {
	e.Time = time.UnixMicro(us).UTC()
	e.Input, e.Salt = input, salt
	if salt != nil && input == nil {
		e.Input = []byte{} // an empty input, not a withheld one
	}
}

// decodeRules parses the rules column (JSON list; "[]" most of the time).
func decodeRules(e *Entry, rules string) error {
	e.Rules = []string{}
	if rules == "[]" {
		return nil
	}
	if err := json.Unmarshal([]byte(rules), &e.Rules); err != nil {
		return fmt.Errorf("entry %d: rules are not a JSON list: %w", e.Seq, err)
	}
	if e.Rules == nil {
		e.Rules = []string{}
	}
	return nil
}

// Get returns the entry with sequence number seq (ErrNoEntry if none).
func (r *Register) Get(seq int64) (*Entry, error) {
	e := new(Entry)
	err := scanEntry(r.db.QueryRow(r.selectCols()+` WHERE seq = ?`, seq), e)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("register %s: entry %d: %w", r.path, seq, ErrNoEntry)
	}
	if err != nil {
		return nil, r.wrap(err)
	}
	return e, nil
}

// Head returns the last entry's sequence number and hash (0 and GenesisHash
// for an empty register).
func (r *Register) Head() (int64, string, error) {
	seq, hash, err := headOf(r.db)
	return seq, hash, r.wrap(err)
}

// Each calls fn for every entry with seq >= from, in ascending order,
// streaming (constant memory). fn must not keep e: it is reused. If fn
// returns an error, Each stops and returns it.
func (r *Register) Each(from int64, fn func(e *Entry) error) error {
	var fnErr error
	err := r.stream(from, func(e *Entry, err error) bool {
		if err == nil {
			err = fn(e)
		}
		fnErr = err
		return err == nil
	})
	if fnErr != nil {
		return fnErr
	}
	return r.wrap(err)
}

// Filter selects entries for Query. Zero fields do not filter.
type Filter struct {
	Since     time.Time // entries at or after this time
	Until     time.Time // entries before this time
	Kind      string    // KindDecision, KindError, ...
	Decision  string    // allow, ask, deny
	Tool      string
	SessionID string
	Before    int64 // only entries with seq < Before (paging)
	Limit     int   // at most this many (0: no limit)
}

// Query returns the entries matching f, newest (highest seq) first.
func (r *Register) Query(f Filter) ([]*Entry, error) {
	q, args := f.query(r)
	return r.collect(q, args...)
}

// query is the SQL of f over r, newest first.
func (f Filter) query(r *Register) (string, []any) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if !f.Since.IsZero() {
		add("time_us >= ?", f.Since.UnixMicro())
	}
	if !f.Until.IsZero() {
		add("time_us < ?", f.Until.UnixMicro())
	}
	if f.Kind != "" {
		add("kind = ?", f.Kind)
	}
	if f.Decision != "" {
		add("decision = ?", f.Decision)
	}
	if f.Tool != "" {
		add("tool = ?", f.Tool)
	}
	if f.SessionID != "" {
		add("session_id = ?", f.SessionID)
	}
	if f.Before > 0 {
		add("seq < ?", f.Before)
	}
	q := r.selectCols()
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY seq DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	return q, args
}

// FindByToolUseID returns the entries recorded for a tool_use_id (the
// decision, and an outcome if the call ran), oldest first.
func (r *Register) FindByToolUseID(id string) ([]*Entry, error) {
	return r.collect(r.selectCols()+` WHERE tool_use_id = ? ORDER BY seq`, id)
}

func (r *Register) collect(q string, args ...any) ([]*Entry, error) {
	rows, err := r.db.Query(q, args...)
	if err != nil {
		return nil, r.wrap(err)
	}
	defer rows.Close()
	var out []*Entry
	for rows.Next() {
		e := new(Entry)
		if err := scanEntry(rows, e); err != nil {
			return nil, r.wrap(err)
		}
		out = append(out, e)
	}
	return out, r.wrap(rows.Err())
}

// Count returns the number of entries.
func (r *Register) Count() (int64, error) {
	var n int64
	err := r.db.QueryRow(`SELECT count(*) FROM entries`).Scan(&n)
	return n, r.wrap(err)
}
