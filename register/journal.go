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
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var bg = context.Background()

// Journal file names, in the register's directory.
const (
	JournalFile     = "journal.jsonl"
	journalLockFile = "journal.lock"
)

// Bounds of the fallback journal. Writers wait at most JournalLockWait for
// the journal lock; a merge handles at most mergeLines lines or mergeBytes
// bytes per transaction (the rest on the next append, or by MergeJournal),
// so a long journal costs each hook call a few milliseconds, not seconds.
const (
	JournalLockWait = 300 * time.Millisecond
	mergeLines      = 256
	mergeBytes      = 1 << 20
	maxJournalLine  = 16 << 20 // an 8 MiB payload is ~11 MiB of JSON (base64 input)
	maxJournalScan  = 256 << 20
	mergeLockWait   = 20 * time.Millisecond
	keepLineBytes   = 4 << 10 // of an undecodable line, kept as its error entry's input
	journalPosKey   = "journal_pos"
	refusedSuffix   = ".refused-"
)

// journalKinds are the entry kinds a journal line may carry; anything else
// (a grade, say) is merged as an error entry: a journal line is written by
// whatever can write the state directory, the agent included.
var journalKinds = map[string]bool{KindDecision: true, KindError: true, KindOutcome: true}

// journalLine is one line of the fallback journal.
type journalLine struct {
	Entry *Entry `json:"entry"`
	Why   string `json:"why,omitempty"`
}

// Journal records e in the fallback journal <dir>/journal.jsonl when the
// register itself cannot be written (locked, read-only, full, corrupt). It
// is the guarantee that no decision is silently lost: later appends (or
// MergeJournal) on the register in dir merge every journaled entry into
// the chain, in journal order, exactly once, marked as journaled.
//
// e gets its Time, Salt and Commitment here (Seq, PrevHash and Hash are
// assigned when it is merged). The line is fsynced before Journal returns.
// It waits at most JournalLockWait for the journal lock and refuses a
// journal that is not a regular file (a FIFO, a symlink): the error then
// means the decision is recorded nowhere.
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
	// The leading newline ends a line torn by a writer killed mid-write, so
	// the torn bytes never swallow this line.
	b = append(append([]byte{'\n'}, b...), '\n')
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	// Writers share the lock (O_APPEND keeps their lines apart); only the
	// removal of a fully merged journal takes it exclusively.
	unlock, err := lockJournal(dir, syscall.LOCK_SH, JournalLockWait)
	if err != nil {
		return err
	}
	defer unlock()
	path := filepath.Join(dir, JournalFile)
	_, statErr := os.Lstat(path)
	f, err := openPlain(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return journalErr(path, err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return journalErr(path, err)
	}
	if statErr != nil {
		syncDir(dir) // a new file: make its directory entry durable too
	}
	e.Time, e.Salt, e.Commitment, e.Rules = c.Time, c.Salt, c.Commitment, c.Rules
	return nil
}

// journalErr classifies a journal failure like a register one.
func journalErr(path string, err error) error {
	var u *errUnsafe
	if errors.As(err, &u) {
		return &Error{Path: path, Class: ErrRefused, Detail: "fallback journal " + u.Error(), Cause: err}
	}
	if p := errnoClass(path, err); p != nil {
		p.Detail = "fallback journal: " + p.Detail
		return p
	}
	return &Error{Path: path, Detail: "fallback journal: " + err.Error(), Cause: err}
}

// lockJournal takes the journal's flock (LOCK_SH or LOCK_EX), waiting at
// most wait. A lock file replaced while we waited (another inode under the
// name) is taken again, so two processes never lock different files.
func lockJournal(dir string, how int, wait time.Duration) (func(), error) {
	path := filepath.Join(dir, journalLockFile)
	deadline := time.Now().Add(wait)
	for try := 0; ; try++ {
		f, err := openPlain(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, journalErr(path, err)
		}
		if err := flockWithin(f, how, time.Until(deadline)); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &Error{Path: path, Class: ErrLocked, Cause: err,
					Detail: fmt.Sprintf("fallback journal lock is held by another process for more than %s", wait)}
			}
			return nil, journalErr(path, err)
		}
		if sameFile(f, path) || try == 3 {
			return func() { f.Close() }, nil // closing releases the flock
		}
		f.Close()
	}
}

// sameFile reports whether the name path still refers to the open file f.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// PendingJournal counts the lines in dir's fallback journal file (lines
// of a merge part-way through included; (*Register).JournalPending skips
// them). It never blocks (a FIFO is refused, not read) and reads at most
// 256 MiB; a larger journal is an error that says how many lines it
// counted.
func PendingJournal(dir string) (int, error) {
	return pendingFrom(dir, nil)
}

// JournalPending counts the journal lines this register has not merged
// yet: those after the position its last merge recorded.
func (r *Register) JournalPending() (int, error) {
	return pendingFrom(r.Dir(), func(f *os.File, fi os.FileInfo) int64 {
		var posText string
		r.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, journalPosKey).Scan(&posText)
		return resumeAt(f, parsePos(posText), inode(fi), fi.Size())
	})
}

// pendingFrom counts the lines of dir's journal from the offset start
// gives (the beginning when nil).
func pendingFrom(dir string, start func(*os.File, os.FileInfo) int64) (int, error) {
	path := filepath.Join(dir, JournalFile)
	f, err := openPlain(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, journalErr(path, err)
	}
	defer f.Close()
	if start != nil {
		fi, err := f.Stat()
		if err != nil {
			return 0, err
		}
		if _, err := f.Seek(start(f, fi), io.SeekStart); err != nil {
			return 0, err
		}
	}
	n, rest := 0, false
	buf := make([]byte, 1<<20)
	var read int64
	prev := byte('\n')
	for {
		k, err := f.Read(buf)
		for _, c := range buf[:k] {
			if c == '\n' && prev != '\n' {
				n++
			}
			prev = c
		}
		read += int64(k)
		if err != nil {
			break
		}
		if read >= maxJournalScan {
			rest = true
			break
		}
	}
	if prev != '\n' {
		n++ // a last line without its newline
	}
	if rest {
		return n, &Error{Path: path, Detail: fmt.Sprintf("fallback journal is over %d MiB; %d lines in its first %d MiB", maxJournalScan>>20, n, maxJournalScan>>20)}
	}
	return n, nil
}

// journalPos is how far the register has merged the journal file: the
// file's inode, the offset after the last merged line, and a hash of that
// line's tail. A journal that was removed and written anew (maybe with the
// same inode number) does not match and is read from its start; the
// merge ledger skips what was merged before.
type journalPos struct {
	ino  uint64
	off  int64
	tail string
}

func (p journalPos) String() string {
	return fmt.Sprintf("%d:%d:%s", p.ino, p.off, p.tail)
}

func parsePos(s string) (p journalPos) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 {
		return journalPos{}
	}
	p.ino, _ = strconv.ParseUint(parts[0], 10, 64)
	p.off, _ = strconv.ParseInt(parts[1], 10, 64)
	p.tail = parts[2]
	return p
}

// tailHash hashes the (up to) 16 KiB of f before off: merged lines, each
// with its random salt, so another file at the same offset does not match.
func tailHash(f *os.File, off int64) string {
	from := max(0, off-16<<10)
	b := make([]byte, off-from)
	if _, err := f.ReadAt(b, from); err != nil {
		return ""
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:12])
}

func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// journalClaim is what a merge leaves for after its commit: removing a
// fully merged journal, or moving a refused one aside.
type journalClaim struct {
	dir string
	// f is the merged journal, kept open until done: while it is open its
	// inode cannot be freed and reused by a new journal, which then could
	// be taken for it (same inode number, same size: one line each) and
	// removed unmerged.
	f       *os.File
	size    int64  // the journal's size when fully merged (removable)
	refused string // the journal was refused: move it aside
}

// close releases the claim's file (after done, or when the transaction
// failed).
func (j *journalClaim) close() {
	if j != nil && j.f != nil {
		j.f.Close()
		j.f = nil
	}
}

// done runs after the transaction has committed.
func (j *journalClaim) done() {
	if j == nil {
		return
	}
	defer j.close()
	path := filepath.Join(j.dir, JournalFile)
	if j.refused != "" {
		if os.Rename(path, j.refused) == nil {
			syncDir(j.dir)
		}
		return
	}
	if j.size == 0 {
		return
	}
	// Remove it only with no writer inside (the exclusive lock) and only if
	// nothing was added since it was read. Failing that, it stays: the
	// position recorded in the register skips what was merged.
	unlock, err := lockJournal(j.dir, syscall.LOCK_EX, mergeLockWait)
	if err != nil {
		return
	}
	defer unlock()
	if fi, err := os.Lstat(path); err == nil && fi.Size() == j.size && j.f != nil && sameFile(j.f, path) {
		if os.Remove(path) == nil {
			syncDir(j.dir)
		}
	}
}

// mergeJournal merges one bounded chunk of pending journal lines into the
// chain inside tx, continuing where the last merge stopped.
//
// Exactly once: each merged line's key (its commitment) is recorded in
// journal_merged, with the entry's seq, in the same transaction; a line
// already recorded is skipped. A line that cannot be decoded (a torn write,
// garbage) is merged as an error entry holding (the start of) its bytes,
// so nothing is lost silently. A journal that is not a regular file is not
// read: an error entry says so and it is moved aside after commit.
func (r *Register) mergeJournal(tx *sql.Tx, head *chainHead) (*journalClaim, error) {
	dir := r.Dir()
	path := filepath.Join(dir, JournalFile)
	if _, err := os.Lstat(path); err != nil {
		return nil, nil // the common case: nothing journaled
	}
	f, err := openPlain(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var u *errUnsafe
	if errors.As(err, &u) {
		aside := path + refusedSuffix + time.Now().UTC().Format("20060102T150405.000000000Z")
		e := &Entry{Kind: KindError, Rules: []string{}, Reason: fmt.Sprintf(
			"the fallback journal was refused and not merged: %s; moved aside to %s", u.Error(), filepath.Base(aside))}
		if err := seal(e, nil); err != nil {
			return nil, err
		}
		if err := insert(tx, e, head); err != nil {
			return nil, err
		}
		return &journalClaim{dir: dir, refused: aside}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the fallback journal: %w", err)
	}
	keep := false // f goes to the claim when the journal may be removed
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size, ino := fi.Size(), inode(fi)

	var posText string
	if err := tx.QueryRow(`SELECT value FROM meta WHERE key = ?`, journalPosKey).Scan(&posText); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	start := resumeAt(f, parsePos(posText), ino, size)

	if size > start && !endsWithNewline(f, size) {
		size = terminateTorn(dir, f, size)
	}
	buf, err := readChunk(f, start, size)
	if err != nil {
		return nil, fmt.Errorf("reading the fallback journal: %w", err)
	}
	consumed := int64(0)
	lines := 0
	for consumed < int64(len(buf)) && lines < mergeLines {
		rest := buf[consumed:]
		i := bytes.IndexByte(rest, '\n')
		var raw []byte
		var next int64
		switch {
		case i >= 0:
			raw, next = rest[:i], consumed+int64(i)+1
		case len(rest) > maxJournalLine:
			raw, next = rest[:maxJournalLine], consumed+maxJournalLine // an over-long line: its first part
		default:
			next = -1 // an unfinished last line: a writer is still writing it
		}
		if next < 0 {
			break
		}
		offset := start + consumed
		consumed = next
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		lines++
		e, key := decodeJournalLine(raw, offset)
		res, err := tx.Exec(`INSERT OR IGNORE INTO journal_merged(key, seq) VALUES (?, ?)`, key, head.seq+1)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		if err := insert(tx, e, head); err != nil {
			return nil, err
		}
		head.merged++
	}
	if consumed == 0 {
		if start == size {
			// Merged earlier, but its removal was skipped (the lock was held).
			keep = true
			return &journalClaim{dir: dir, f: f, size: size}, nil
		}
		return nil, nil
	}
	end := start + consumed
	pos := journalPos{ino: ino, off: end, tail: tailHash(f, end)}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, journalPosKey, pos.String()); err != nil {
		return nil, err
	}
	head.journalLeft = end < size
	if end == size {
		keep = true
		return &journalClaim{dir: dir, f: f, size: size}, nil
	}
	return nil, nil
}

// resumeAt is where to start reading: after the last merged line if the
// recorded position is this file's, else at the start.
func resumeAt(f *os.File, p journalPos, ino uint64, size int64) int64 {
	if p.off <= 0 || p.ino != ino || p.off > size {
		return 0
	}
	if t := tailHash(f, p.off); t == "" || t != p.tail {
		return 0
	}
	return p.off
}

// endsWithNewline reports whether the journal's last byte is a newline.
func endsWithNewline(f *os.File, size int64) bool {
	var c [1]byte
	_, err := f.ReadAt(c[:], size-1)
	return err == nil && c[0] == '\n'
}

// terminateTorn ends a last line that has no newline when no writer is
// inside (the exclusive lock, tried briefly): such a line is torn (its
// writer died), and ending it lets it be merged as an error entry. It
// returns the journal's size afterwards.
func terminateTorn(dir string, f *os.File, size int64) int64 {
	unlock, err := lockJournal(dir, syscall.LOCK_EX, mergeLockWait)
	if err != nil {
		return size
	}
	defer unlock()
	path := filepath.Join(dir, JournalFile)
	w, err := openPlain(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return size
	}
	defer w.Close()
	if fi, err := w.Stat(); err != nil || !sameFile(f, path) || fi.Size() != size {
		return size
	}
	if _, err := w.Write([]byte{'\n'}); err != nil {
		return size
	}
	w.Sync()
	return size + 1
}

// readChunk reads the journal from start: up to mergeBytes, extended to
// the end of a longer line (at most maxJournalLine+1 bytes).
func readChunk(f *os.File, start, size int64) ([]byte, error) {
	n := min(size-start, mergeBytes)
	if n <= 0 {
		return nil, nil
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if bytes.IndexByte(buf, '\n') >= 0 || n == size-start {
		return buf, nil
	}
	long := make([]byte, min(size-start, maxJournalLine+1))
	if _, err := f.ReadAt(long, start); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return long, nil
}

// decodeJournalLine turns a journal line into the entry to chain and its
// exactly-once key.
func decodeJournalLine(raw []byte, offset int64) (*Entry, string) {
	var l journalLine
	err := json.Unmarshal(raw, &l)
	if err == nil && (l.Entry == nil || l.Entry.Salt == nil) {
		err = errors.New("no entry or salt")
	}
	if err != nil {
		sum := sha256.Sum256(raw)
		kept := raw
		note := ""
		if len(kept) > keepLineBytes {
			kept = kept[:keepLineBytes]
			note = fmt.Sprintf(" (%d bytes, the first %d kept, sha256 %x)", len(raw), keepLineBytes, sum)
		}
		e := &Entry{
			Kind:   KindError,
			Input:  append([]byte(nil), kept...),
			Rules:  []string{},
			Reason: fmt.Sprintf("journal line at byte %d could not be decoded (torn write?)%s: %v", offset, note, err),
		}
		seal(e, nil)
		return e, "line:" + hex.EncodeToString(sum[:])
	}
	e := l.Entry
	note := "journaled"
	if l.Why != "" {
		note += ": " + l.Why
	}
	if !journalKinds[e.Kind] {
		note = fmt.Sprintf("journal line claimed kind %q, which only sentinel itself writes; %s", e.Kind, note)
		e.Kind = KindError
	}
	seal(e, nil) // keeps its salt and time; recomputes the commitment from them
	if e.Reason == "" {
		e.Reason = "[" + note + "]"
	} else {
		e.Reason += " [" + note + "]"
	}
	return e, e.Commitment
}
