package register

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

const insertSQL = `INSERT INTO entries (seq, kind, time_us, session_id, tool_use_id, cwd, tool,
	input, salt, commitment, decision, rules, reason, attended, permission_mode,
	catalog_version, catalog_hash, version, ref, label, prev_hash, hash, facts, harness)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`

// Append adds e to the register in one BEGIN IMMEDIATE transaction, after
// merging any pending fallback journal (see Journal). It assigns Seq, Time
// (UTC, microseconds, when zero), a fresh Salt, Commitment, PrevHash and
// Hash, and fills them into e only once the transaction has committed.
//
// Any number of processes may append at once: SQLite's write lock orders
// them, each reads the head inside its own transaction, so the chain stays
// linear and no entry is lost.
func (r *Register) Append(e *Entry) error { return r.AppendExpecting(e, nil) }

// Expect is what the newest entry of one kind must be for AppendExpecting
// to append: the decision being recorded was made from a cache of that
// entry (the must-keep gate's gate.json), and the register is the truth.
// Seq 0 expects no entry of the kind at all.
type Expect struct {
	Kind string
	Seq  int64
	Hash string
	// Label and Reason, when Seq is not 0, must be the entry's too: a
	// cache edited in place keeps the entry's number and hash.
	Label, Reason string
}

// StaleError is AppendExpecting's refusal: the newest entry of the kind is
// Found (nil: there is none), not what the caller expected. Nothing was
// appended.
type StaleError struct {
	Want  Expect
	Found *Entry
}

func (e *StaleError) Error() string {
	found := "none"
	if e.Found != nil {
		found = fmt.Sprintf("entry %d (%.16s)", e.Found.Seq, e.Found.Hash)
	}
	want := "none"
	if e.Want.Seq != 0 {
		want = fmt.Sprintf("entry %d (%.16s)", e.Want.Seq, e.Want.Hash)
		if f := e.Found; f != nil && f.Seq == e.Want.Seq && f.Hash == e.Want.Hash {
			return fmt.Sprintf("the %q entry %d says %q, not what its cache says (%q)", e.Want.Kind, f.Seq, f.Reason, e.Want.Reason)
		}
	}
	return fmt.Sprintf("the register's newest %q entry is %s, not %s", e.Want.Kind, found, want)
}

// AppendExpecting is Append, checked inside the same transaction against
// x (nil: no check): when the newest entry of x.Kind that sentinel appended
// itself (never one merged from the journal) is not x, nothing is appended
// and the error is a *StaleError.
func (r *Register) AppendExpecting(e *Entry, x *Expect) error {
	if r.readOnly {
		return &Error{Path: r.path, Class: ErrReadOnly, Detail: "opened read-only"}
	}
	if e.Kind == "" {
		return errors.New("register: entry has no kind")
	}
	c := *e
	c.Salt = nil // always a fresh salt: a reused one would let equal inputs be linked
	if err := seal(&c, nil); err != nil {
		return err
	}
	add := func(tx *sql.Tx, head *chainHead) error {
		if x != nil {
			found, err := latestOfKind(tx, x.Kind)
			if err != nil {
				return err
			}
			if (found == nil) != (x.Seq == 0) || (found != nil && (found.Seq != x.Seq || found.Hash != x.Hash ||
				found.Label != x.Label || found.Reason != x.Reason)) {
				return &StaleError{Want: *x, Found: found}
			}
		}
		return insert(tx, &c, head)
	}
	err := r.inTx(add)
	if errors.Is(err, ErrDiskFull) {
		// The write-ahead log may be what fills the disk: fold it into the
		// database file, truncate it, and try once more.
		r.checkpoint()
		err = r.inTx(add)
	}
	if err != nil {
		return err
	}
	*e = c
	return nil
}

// MergeJournal merges every pending fallback-journal entry into the chain
// without appending anything else, one bounded transaction at a time, and
// returns how many it merged. (Append merges one chunk per call.)
func (r *Register) MergeJournal() (int, error) {
	if r.readOnly {
		return 0, &Error{Path: r.path, Class: ErrReadOnly, Detail: "opened read-only"}
	}
	total := 0
	for {
		var n int
		var left bool
		err := r.inTx(func(tx *sql.Tx, head *chainHead) error {
			n, left = head.merged, head.journalLeft
			return nil
		})
		total += n
		if err != nil || !left {
			return total, err
		}
	}
}

// chainHead is the last entry of the chain as seen inside a transaction.
type chainHead struct {
	seq         int64
	hash        string
	stmt        *sql.Stmt
	merged      int  // journal entries merged in this transaction
	journalLeft bool // more of the journal is pending after this transaction
}

// inTx runs fn in one IMMEDIATE transaction on a dedicated connection, with
// the chain head read after the lock is taken, the register checked
// against its anchor, and (a chunk of) the journal merged first.
func (r *Register) inTx(fn func(*sql.Tx, *chainHead) error) (err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	conn, err := r.conn()
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(bg, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return r.wrap(err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	head := &chainHead{}
	if head.seq, head.hash, err = headOf(tx); err != nil {
		return r.wrap(err)
	}
	id, err := r.idIn(tx)
	if err != nil {
		return r.wrap(err)
	}
	a, err := ReadAnchor(r.Dir())
	if err != nil {
		return unreadableAnchor(r.path, err, "")
	}
	if err := r.checkAnchor(tx, a, id, head.seq); err != nil {
		return r.wrap(err)
	}
	if head.stmt, err = tx.Prepare(insertSQL); err != nil {
		return r.wrap(err)
	}
	defer head.stmt.Close()
	j, err := r.mergeJournal(tx, head)
	if err != nil {
		return r.wrap(err)
	}
	defer j.close()
	if err = fn(tx, head); err != nil {
		return r.wrap(err)
	}
	if err = tx.Commit(); err != nil {
		return r.wrap(err)
	}
	if head.seq > 0 && (a == nil || head.seq > a.Seq) {
		writeAnchor(r.Dir(), Anchor{ID: id, Seq: head.seq, Hash: head.hash})
	}
	j.done()
	r.trimWAL(conn)
	return nil
}

// idIn reads the register id inside tx (once per Register).
func (r *Register) idIn(tx *sql.Tx) (string, error) {
	r.idOnce.Do(func() {
		r.idErr = tx.QueryRow(`SELECT value FROM meta WHERE key = 'register_id'`).Scan(&r.id)
	})
	return r.id, r.idErr
}

// walTrimBytes is the write-ahead log size above which an append
// checkpoints and truncates it. An append adds about 25 KB to the log (the
// entry's page, four index pages, sqlite_sequence, the header), so every
// committed entry is in the database file itself after at most three more
// appends: a deleted or unbacked-up -wal loses at most those, and the
// anchor reports the loss.
const walTrimBytes = 64 << 10

// trimWAL keeps the write-ahead log short. Two reasons: committed entries
// must reach the database file within a few appends (see walTrimBytes),
// and processes that append once and exit without Close (the hook) get no
// help from SQLite's automatic checkpoint: every new process rebuilds the
// WAL index from the whole log and counts none of it as checkpointed, so
// the log would grow with every call (measured: 32 MB after 1,200 calls,
// and opening took 15-27 ms). It never waits: with a reader active (a long
// verify), it copies what it can and the next append tries again.
//
// On a nearly full file system (less than lowSpace free) it checkpoints
// after every append: the log's pages must be free for the database file
// to grow into when it is folded in, or the register stops for good with
// the disk full of log (measured on a 200 KiB tmpfs: 5 entries before
// any checkpoint, 41 with a checkpoint every three appends).
func (r *Register) trimWAL(conn *sql.Conn) {
	fi, err := os.Stat(r.path + "-wal")
	if err != nil || fi.Size() == 0 {
		return
	}
	if fi.Size() < walTrimBytes {
		var fs syscall.Statfs_t
		if syscall.Statfs(r.Dir(), &fs) != nil || int64(fs.Bavail)*int64(fs.Bsize) >= lowSpace {
			return
		}
	}
	r.checkpointOn(conn)
}

// lowSpace is the free space below which every append is checkpointed.
const lowSpace = 4 << 20

// checkpoint runs a TRUNCATE checkpoint on a connection of its own.
func (r *Register) checkpoint() {
	if conn, err := r.db.Conn(bg); err == nil {
		r.checkpointOn(conn)
		conn.Close()
	}
}

func (r *Register) checkpointOn(conn *sql.Conn) {
	conn.ExecContext(bg, `PRAGMA busy_timeout = 0`)
	conn.ExecContext(bg, `PRAGMA wal_checkpoint(TRUNCATE)`)
	conn.ExecContext(bg, fmt.Sprintf(`PRAGMA busy_timeout = %d`, r.busy.Milliseconds()))
}

type querier interface {
	QueryRow(query string, args ...any) *sql.Row
}

// headOf reads the last entry's seq and hash (0 and GenesisHash when empty).
func headOf(q querier) (int64, string, error) {
	var seq int64
	var hash string
	err := q.QueryRow(`SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1`).Scan(&seq, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, GenesisHash, nil
	}
	return seq, hash, err
}

// seal prepares an entry's own fields before it is chained: time, salt,
// commitment, non-nil rules. A salt already present (a journaled entry) is
// kept, so its commitment stays the one the journal recorded.
func seal(e *Entry, now func() time.Time) error {
	if e.Time.IsZero() {
		if now == nil {
			now = time.Now
		}
		e.Time = now()
	}
	e.Time = e.Time.UTC().Truncate(time.Microsecond)
	if e.Salt == nil {
		e.Salt = make([]byte, 32)
		if err := readRandom(e.Salt); err != nil {
			return fmt.Errorf("register: drawing a salt: %w", err)
		}
	}
	e.Commitment = Commit(e.Salt, e.Input)
	if e.Rules == nil {
		e.Rules = []string{}
	}
	return nil
}

// insert chains e after head and inserts it.
func insert(tx *sql.Tx, e *Entry, head *chainHead) error {
	e.Seq = head.seq + 1
	e.PrevHash = head.hash
	e.Hash = EntryHash(e)
	rules, err := encodeRules(e.Rules)
	if err != nil {
		return err
	}
	input := e.Input
	if input == nil && e.Salt != nil {
		input = []byte{} // an empty input is still an input: keep it apart from "withheld"
	}
	_, err = head.stmt.Exec(e.Seq, e.Kind, e.Time.UnixMicro(), e.SessionID, e.ToolUseID, e.Cwd, e.Tool,
		input, e.Salt, e.Commitment, e.Decision, rules, e.Reason, e.Attended, e.PermissionMode,
		e.CatalogVersion, e.CatalogHash, e.Version, e.Ref, e.Label, e.PrevHash, e.Hash, e.Facts, e.Harness)
	if err != nil {
		return err
	}
	head.seq, head.hash = e.Seq, e.Hash
	return nil
}

func encodeRules(rules []string) (string, error) {
	if len(rules) == 0 {
		return "[]", nil
	}
	b, err := json.Marshal(rules)
	return string(b), err
}

// BulkLoad appends n entries made by gen, many per transaction, with a valid
// chain: a quick way to build a large register for benchmarks and tests.
// gen may return the same *Entry each time; Time defaults to now.
func BulkLoad(r *Register, n int, gen func(i int) *Entry) error {
	const batch = 20000
	for done := 0; done < n; {
		err := r.inTx(func(tx *sql.Tx, head *chainHead) error {
			for k := 0; k < batch && done < n; k++ {
				e := *gen(done)
				if e.Kind == "" {
					e.Kind = KindDecision
				}
				e.Salt = nil
				if err := seal(&e, nil); err != nil {
					return err
				}
				if err := insert(tx, &e, head); err != nil {
					return err
				}
				done++
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// latestOfKindSQL reads the newest entry of a kind that was appended, not
// merged from the fallback journal (which any process of the user can
// write); entries_kind serves it.
const latestOfKindSQL = `SELECT seq, hash, label, reason, rules, time_us FROM entries
	WHERE kind = ? AND seq NOT IN (SELECT seq FROM journal_merged WHERE seq IS NOT NULL)
	ORDER BY seq DESC LIMIT 1`

func latestOfKind(q querier, kind string) (*Entry, error) {
	var e Entry
	var rules string
	var us int64
	err := q.QueryRow(latestOfKindSQL, kind).Scan(&e.Seq, &e.Hash, &e.Label, &e.Reason, &rules, &us)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	e.Kind, e.Time = kind, time.UnixMicro(us).UTC()
	return &e, decodeRules(&e, rules)
}

// LatestOfKind is the newest entry of kind that sentinel appended itself
// (nil when there is none); its Seq, Hash, Label, Reason, Rules and Time
// are filled.
func (r *Register) LatestOfKind(kind string) (*Entry, error) {
	e, err := latestOfKind(r.db, kind)
	return e, r.wrap(err)
}
