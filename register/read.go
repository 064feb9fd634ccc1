package register

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// textCols are the entry's text columns, fetched packed into one value
// (see packedCols): one string per row instead of sixteen keeps reading a
// million entries fast.
var textCols = []string{"kind", "session_id", "tool_use_id", "cwd", "tool", "commitment", "decision",
	"rules", "reason", "permission_mode", "catalog_version", "catalog_hash", "version", "label",
	"prev_hash", "hash"}

// selectCols selects an entry as seq, time_us, attended, ref, input, salt
// and the text columns packed as "<byte length>:<bytes>" each, which
// decodes unambiguously whatever bytes the fields hold.
var selectCols = func() string {
	var b strings.Builder
	b.WriteString("SELECT seq, time_us, attended, ref, input, salt, concat(")
	for i, c := range textCols {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "octet_length(%s), ':', %s", c, c)
	}
	b.WriteString(") FROM entries")
	return b.String()
}()

// ErrNoEntry is returned by Get for a sequence number not in the register.
var ErrNoEntry = errors.New("no such entry")

type scanner interface{ Scan(dest ...any) error }

// scanEntry reads one row (database/sql) into e.
func scanEntry(s scanner, e *Entry) error {
	var seq, us, attended, ref int64
	var input, salt []byte
	var packed string
	if err := s.Scan(&seq, &us, &attended, &ref, &input, &salt, &packed); err != nil {
		return err
	}
	return decodeRow(e, seq, us, attended, ref, input, salt, packed)
}

// decodeRow fills e from a row's values. The strings of e share packed's
// memory (no copy per field).
func decodeRow(e *Entry, seq, us, attended, ref int64, input, salt []byte, packed string) error {
	e.Seq, e.Time, e.Attended, e.Ref = seq, time.UnixMicro(us).UTC(), attended != 0, ref
	e.Input, e.Salt = input, salt
	if salt != nil && input == nil {
		e.Input = []byte{}
	}
	var rules string
	fields := [...]*string{&e.Kind, &e.SessionID, &e.ToolUseID, &e.Cwd, &e.Tool, &e.Commitment, &e.Decision,
		&rules, &e.Reason, &e.PermissionMode, &e.CatalogVersion, &e.CatalogHash, &e.Version, &e.Label,
		&e.PrevHash, &e.Hash}
	rest := packed
	for i, f := range fields {
		colon := strings.IndexByte(rest, ':')
		n, err := strconv.Atoi(rest[:max(colon, 0)])
		if colon < 0 || err != nil || n < 0 || n > len(rest)-colon-1 {
			return fmt.Errorf("entry %d: column %s cannot be decoded", seq, textCols[i])
		}
		*f, rest = rest[colon+1:colon+1+n], rest[colon+1+n:]
	}
	if rest != "" {
		return fmt.Errorf("entry %d: trailing bytes after the columns", seq)
	}
	if rules == "[]" {
		e.Rules = []string{}
		return nil
	}
	e.Rules = nil
	if err := json.Unmarshal([]byte(rules), &e.Rules); err != nil {
		return fmt.Errorf("entry %d: rules are not a JSON list: %w", seq, err)
	}
	if e.Rules == nil {
		e.Rules = []string{}
	}
	return nil
}

// Get returns the entry with sequence number seq (ErrNoEntry if none).
func (r *Register) Get(seq int64) (*Entry, error) {
	e := new(Entry)
	err := scanEntry(r.db.QueryRow(selectCols+` WHERE seq = ?`, seq), e)
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

// stream reads the entries from seq from on, in order, below database/sql
// (one driver call per row, no per-column conversions), and hands each to
// fn with its decode error; fn returns false to stop.
func (r *Register) stream(from int64, fn func(*Entry, error) bool) error {
	conn, err := r.db.Conn(bg)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Queryer)
		if !ok {
			return fmt.Errorf("sqlite driver cannot query")
		}
		rows, err := c.Query(selectCols+` WHERE seq >= ? ORDER BY seq`, []driver.Value{from})
		if err != nil {
			return err
		}
		defer rows.Close()
		dest := make([]driver.Value, 7)
		var e Entry
		for {
			if err := rows.Next(dest); err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			if !fn(&e, decodeValues(&e, dest)) {
				return nil
			}
		}
	})
}

// decodeValues decodes a driver row (the columns of selectCols).
func decodeValues(e *Entry, v []driver.Value) error {
	seq, ok0 := v[0].(int64)
	us, ok1 := v[1].(int64)
	att, ok2 := v[2].(int64)
	ref, ok3 := v[3].(int64)
	input, ok4 := v[4].([]byte)
	salt, ok5 := v[5].([]byte)
	packed, ok6 := v[6].(string)
	ok4 = ok4 || v[4] == nil
	ok5 = ok5 || v[5] == nil
	if !(ok0 && ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return fmt.Errorf("entry %v: a column has the wrong type", v[0])
	}
	return decodeRow(e, seq, us, att, ref, input, salt, packed)
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
	q := selectCols
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY seq DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	return r.collect(q, args...)
}

// FindByToolUseID returns the entries recorded for a tool_use_id (the
// decision, and an outcome if the call ran), oldest first.
func (r *Register) FindByToolUseID(id string) ([]*Entry, error) {
	return r.collect(selectCols+` WHERE tool_use_id = ? ORDER BY seq`, id)
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
