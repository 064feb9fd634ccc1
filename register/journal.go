package register

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

var bg = context.Background()

// Journal file names, in the register's directory.
const (
	JournalFile     = "journal.jsonl"
	journalLockFile = "journal.lock"
)

// journalLine is one line of the fallback journal.
type journalLine struct {
	Entry *Entry `json:"entry"`
	Why   string `json:"why,omitempty"`
}

// Journal records e in the fallback journal <dir>/journal.jsonl when the
// register itself cannot be written (locked, read-only, full, corrupt). It
// is the guarantee that no decision is silently lost: the next successful
// Append (or MergeJournal) on the register in dir merges every journaled
// entry into the chain, in journal order, exactly once.
//
// e gets its Time, Salt and Commitment here (Seq, PrevHash and Hash are
// assigned when it is merged). The line is fsynced before Journal returns.
func Journal(dir string, e *Entry) error { return JournalWhy(dir, e, nil) }

// JournalWhy is Journal recording why the register could not be written;
// the reason is kept in the merged entry's Reason.
func JournalWhy(dir string, e *Entry, why error) error {
	c := *e
	if c.Kind == "" {
		c.Kind = KindError
	}
	if err := seal(&c, nil); err != nil {
		return err
	}
	c.Seq, c.PrevHash, c.Hash = 0, "", ""
	line := journalLine{Entry: &c}
	if why != nil {
		line.Why = why.Error()
	}
	b, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	b = append(b, '\n')
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	unlock, err := lockJournal(dir)
	if err != nil {
		return err
	}
	defer unlock()
	path := filepath.Join(dir, JournalFile)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("journal %s: %w", path, err)
	}
	if statErr != nil {
		syncDir(dir) // a new file: make its directory entry durable too
	}
	e.Time, e.Salt, e.Commitment, e.Rules = c.Time, c.Salt, c.Commitment, c.Rules
	return nil
}

// lockJournal takes the journal's exclusive flock, waiting for the holder
// (writers hold it for one write; a merge for one transaction).
func lockJournal(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, journalLockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	return func() { f.Close() }, nil // closing releases the flock
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// PendingJournal counts the lines waiting in dir's fallback journal.
func PendingJournal(dir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dir, JournalFile))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, l := range bytes.Split(b, []byte{'\n'}) {
		if len(bytes.TrimSpace(l)) > 0 {
			n++
		}
	}
	return n, nil
}

// journalClaim is a journal being merged by the current transaction.
type journalClaim struct {
	dir    string
	unlock func()
	merged bool
}

// release gives up the journal lock (after commit or rollback).
func (j *journalClaim) release() {
	if j != nil && j.unlock != nil {
		j.unlock()
		j.unlock = nil
	}
}

// done removes the merged journal once the transaction has committed; the
// lock is still held, so no writer can have added a line meanwhile.
func (j *journalClaim) done() {
	if j == nil || !j.merged {
		return
	}
	if os.Remove(filepath.Join(j.dir, JournalFile)) == nil {
		syncDir(j.dir)
	}
	j.release()
}

// claimJournal merges pending journal lines into the chain inside tx. It
// holds the journal lock until release, so that lines written while the
// transaction runs wait for it and are not removed unmerged.
//
// Exactly once: each merged line's key (its commitment) is recorded in
// journal_merged in the same transaction; a line already recorded (the
// process died after commit, before removing the journal) is skipped. A line
// that cannot be decoded (a torn write) is merged as an error entry holding
// its bytes, so even that is not lost silently.
func (r *Register) claimJournal(tx *sql.Tx, head *chainHead) (*journalClaim, error) {
	dir := r.Dir()
	path := filepath.Join(dir, JournalFile)
	if _, err := os.Lstat(path); err != nil {
		return nil, nil // the common case: nothing journaled
	}
	unlock, err := lockJournal(dir)
	if err != nil {
		return nil, err
	}
	j := &journalClaim{dir: dir, unlock: unlock}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return j, nil // merged by another process meanwhile
	}
	if err != nil {
		j.release()
		return nil, fmt.Errorf("reading the journal: %w", err)
	}
	for i, raw := range bytes.Split(b, []byte{'\n'}) {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		e, key := decodeJournalLine(raw, i+1)
		res, err := tx.Exec(`INSERT OR IGNORE INTO journal_merged(key) VALUES (?)`, key)
		if err != nil {
			j.release()
			return nil, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		if err := insert(tx, e, head); err != nil {
			j.release()
			return nil, err
		}
		head.merged++
	}
	j.merged = true
	return j, nil
}

// decodeJournalLine turns a journal line into the entry to chain and its
// exactly-once key.
func decodeJournalLine(raw []byte, lineNo int) (*Entry, string) {
	var l journalLine
	err := json.Unmarshal(raw, &l)
	if err == nil && (l.Entry == nil || l.Entry.Salt == nil) {
		err = errors.New("no entry or salt")
	}
	if err != nil {
		sum := sha256.Sum256(raw)
		e := &Entry{
			Kind:   KindError,
			Input:  append([]byte(nil), raw...),
			Reason: fmt.Sprintf("journal line %d could not be decoded (torn write?): %v", lineNo, err),
		}
		seal(e, nil)
		return e, "line:" + hex.EncodeToString(sum[:])
	}
	e := l.Entry
	if e.Kind == "" {
		e.Kind = KindError
	}
	seal(e, nil) // keeps its salt and time; recomputes the commitment from them
	note := "journaled"
	if l.Why != "" {
		note += ": " + l.Why
	}
	if e.Reason == "" {
		e.Reason = "[" + note + "]"
	} else {
		e.Reason += " [" + note + "]"
	}
	return e, e.Commitment
}
