package register

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// What the "unguarded" count (outcome.Unguarded) joins transcripts with:
// the tool_use ids the hook judged, in the register and in the fallback
// journal not merged yet.

// JudgedIDs calls fn with the tool_use_id of every decision and error
// entry that has one (in no particular order, repeats possible). Only that
// column is read, so memory does not grow with the register.
func (r *Register) JudgedIDs(fn func(id string) error) error {
	rows, err := r.db.Query(`SELECT tool_use_id FROM entries WHERE kind IN (?, ?) AND tool_use_id != ''`, KindDecision, KindError)
	if err != nil {
		return r.wrap(err)
	}
	defer rows.Close()
	var id string
	for rows.Next() {
		if err := rows.Scan(&id); err != nil {
			return r.wrap(err)
		}
		if err := fn(id); err != nil {
			return err
		}
	}
	return r.wrap(rows.Err())
}

// FirstTime is the time of the register's first entry: when the guard
// began keeping it (zero for an empty register).
func (r *Register) FirstTime() (time.Time, error) {
	var us int64
	err := r.db.QueryRow(`SELECT time_us FROM entries ORDER BY seq LIMIT 1`).Scan(&us)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return time.Time{}, nil
		}
		return time.Time{}, r.wrap(err)
	}
	return time.UnixMicro(us).UTC(), nil
}

// JournalIDs calls fn with the tool_use_id of each decision or error line
// in dir's fallback journal (lines already merged included: their ids are
// in the register too). It never blocks (a FIFO is refused) and reads at
// most the journal scan bound; a torn or undecodable line is skipped.
func JournalIDs(dir string, fn func(id string)) error {
	path := filepath.Join(dir, JournalFile)
	f, err := openPlain(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return journalErr(path, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.LimitReader(f, maxJournalScan), 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var l struct {
				Entry struct {
					Kind      string `json:"kind"`
					ToolUseID string `json:"tool_use_id"`
				} `json:"entry"`
			}
			if json.Unmarshal(line, &l) == nil && l.Entry.ToolUseID != "" &&
				(l.Entry.Kind == KindDecision || l.Entry.Kind == KindError) {
				fn(l.Entry.ToolUseID)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return &Error{Path: path, Detail: fmt.Sprintf("fallback journal: %v", err), Cause: err}
		}
	}
}
