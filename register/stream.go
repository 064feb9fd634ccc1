package register

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
)

// The streaming read (Each, Verify) is the hot path of verifying a million
// entries, so it differs from Get/Query in three ways:
//   - it reads below database/sql, one driver call per row;
//   - SQLite joins the eighteen text columns into one value with the unit
//     separator 0x1F (one Go string per row instead of eighteen); a row whose
//     fields themselves contain 0x1F splits into more than eighteen parts and
//     is read again the plain way, so odd bytes cannot shift a field;
//   - a reader goroutine decodes rows in batches while the caller's
//     goroutine consumes them (hashing, in Verify): two cores, two stages.

// textCols are the packed text columns, in Entry field order.
var textCols = []string{"kind", "session_id", "tool_use_id", "cwd", "tool", "commitment", "decision",
	"rules", "reason", "permission_mode", "catalog_version", "catalog_hash", "version", "label",
	"prev_hash", "hash", "facts", "harness"}

func (r *Register) streamCols() string {
	return "SELECT seq, time_us, attended, ref, input, salt, concat_ws(char(31), " + r.cols(textCols) + ") FROM entries"
}

const streamBatch = 256

type batch struct {
	es   [streamBatch]Entry
	errs [streamBatch]error
	n    int
}

// stream hands the entries with seq >= from to fn in ascending order, each
// with its decode error; fn returns false to stop. fn runs on the caller's
// goroutine and must not keep the entry.
func (r *Register) stream(from int64, fn func(*Entry, error) bool) error {
	conn, err := r.db.Conn(bg)
	if err != nil {
		return err
	}
	defer conn.Close()
	return r.streamOn(conn, from, fn)
}

// streamOn is stream on a given connection (inside its read transaction).
func (r *Register) streamOn(conn *sql.Conn, from int64, fn func(*Entry, error) bool) error {
	// No mmap: it would save a pread per page, but every mapped page
	// counts in the process's resident memory, and a register of a million
	// entries is 500 MiB (docs/cli.md, "Scale": memory must not grow with
	// the register). SQLite's page cache stays at its default 2 MiB.
	return conn.Raw(func(dc any) error {
		c, ok := dc.(driver.QueryerContext)
		if !ok {
			return errors.New("the sqlite driver cannot query")
		}
		rows, err := c.QueryContext(bg, r.streamCols()+` WHERE seq >= ? ORDER BY seq`, []driver.NamedValue{{Ordinal: 1, Value: from}})
		if err != nil {
			return err
		}
		defer rows.Close()

		free, full := make(chan *batch, 3), make(chan *batch, 3)
		for range 3 {
			free <- new(batch)
		}
		var stop atomic.Bool
		var readErr error
		go func() { // the reader
			defer close(full)
			dest := make([]driver.Value, 7)
			for !stop.Load() {
				b := <-free
				for b.n = 0; b.n < streamBatch; b.n++ {
					if err := rows.Next(dest); err != nil {
						if !errors.Is(err, io.EOF) {
							readErr = err
						}
						full <- b
						return
					}
					b.errs[b.n] = r.decodeStreamRow(&b.es[b.n], dest)
				}
				full <- b
			}
		}()
		// However the consumer ends (fn stops it, fn panics), the reader is
		// told to stop and drained before the rows are closed.
		defer func() {
			stop.Store(true)
			for b := range full {
				free <- b
			}
		}()
		for b := range full {
			for i := 0; i < b.n; i++ {
				if !fn(&b.es[i], b.errs[i]) {
					return nil
				}
			}
			if r.progress != nil && b.n > 0 {
				r.progress(b.es[b.n-1].Seq)
			}
			free <- b
		}
		return readErr
	})
}

// decodeStreamRow decodes one row of streamCols into e.
func (r *Register) decodeStreamRow(e *Entry, v []driver.Value) error {
	seq, ok0 := v[0].(int64)
	us, ok1 := v[1].(int64)
	att, ok2 := v[2].(int64)
	ref, ok3 := v[3].(int64)
	input, ok4 := v[4].([]byte)
	salt, ok5 := v[5].([]byte)
	packed, ok6 := v[6].(string)
	if !(ok0 && ok1 && ok2 && ok3 && (ok4 || v[4] == nil) && (ok5 || v[5] == nil) && ok6) {
		return fmt.Errorf("entry %v: a column has the wrong type", v[0])
	}
	if strings.Count(packed, "\x1f") != len(textCols)-1 {
		// A field holds the separator itself: read this row column by column.
		got, err := r.Get(seq)
		if err != nil {
			return err
		}
		*e = *got
		return nil
	}
	e.Seq, e.Attended, e.Ref = seq, att != 0, ref
	setBinary(e, us, input, salt)
	var rules string
	fields := [...]*string{&e.Kind, &e.SessionID, &e.ToolUseID, &e.Cwd, &e.Tool, &e.Commitment, &e.Decision,
		&rules, &e.Reason, &e.PermissionMode, &e.CatalogVersion, &e.CatalogHash, &e.Version, &e.Label,
		&e.PrevHash, &e.Hash, &e.Facts, &e.Harness}
	for i, f := range fields {
		if i == len(fields)-1 {
			*f = packed
			break
		}
		j := strings.IndexByte(packed, 0x1f)
		*f, packed = packed[:j], packed[j+1:]
	}
	return decodeRules(e, rules)
}
