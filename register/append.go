package register

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

const insertSQL = `INSERT INTO entries (seq, kind, time_us, session_id, tool_use_id, cwd, tool,
	input, salt, commitment, decision, rules, reason, attended, permission_mode,
	catalog_version, catalog_hash, version, ref, label, prev_hash, hash)
	VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`

// Append adds e to the register in one BEGIN IMMEDIATE transaction, after
// merging any pending fallback journal (see Journal). It assigns Seq, Time
// (UTC, microseconds, when zero), a fresh Salt, Commitment, PrevHash and
// Hash, and fills them into e only once the transaction has committed.
//
// Any number of processes may append at once: SQLite's write lock orders
// them, each reads the head inside its own transaction, so the chain stays
// linear and no entry is lost.
func (r *Register) Append(e *Entry) error {
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
	err := r.inTx(func(tx *sql.Tx, head *chainHead) error {
		return insert(tx, &c, head)
	})
	if err != nil {
		return err
	}
	*e = c
	return nil
}

// MergeJournal merges pending fallback-journal entries into the chain
// without appending anything else, and returns how many it merged.
func (r *Register) MergeJournal() (int, error) {
	if r.readOnly {
		return 0, &Error{Path: r.path, Class: ErrReadOnly, Detail: "opened read-only"}
	}
	var n int
	err := r.inTx(func(tx *sql.Tx, head *chainHead) error {
		n = head.merged
		return nil
	})
	return n, err
}

// chainHead is the last entry of the chain as seen inside a transaction.
type chainHead struct {
	seq    int64
	hash   string
	stmt   *sql.Stmt
	merged int // journal entries merged in this transaction
}

// inTx runs fn in one IMMEDIATE transaction on a dedicated connection, with
// the chain head read after the lock is taken and the journal merged first.
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
	if head.stmt, err = tx.Prepare(insertSQL); err != nil {
		return r.wrap(err)
	}
	defer head.stmt.Close()
	j, err := r.claimJournal(tx, head)
	if err != nil {
		return r.wrap(err)
	}
	defer j.release()
	if err = fn(tx, head); err != nil {
		return r.wrap(err)
	}
	if err = tx.Commit(); err != nil {
		return r.wrap(err)
	}
	j.done()
	r.trimWAL(conn)
	return nil
}

// walTrimBytes is the write-ahead log size above which an append
// checkpoints and truncates it.
const walTrimBytes = 256 << 10

// trimWAL keeps the write-ahead log short for processes that append once
// and exit without Close (the hook). SQLite's automatic checkpoint does not
// help them: every new process rebuilds the WAL index from the whole log and
// counts none of it as checkpointed, so the log is never restarted and grows
// with every call (measured: 32 MB after 1,200 calls, and opening took
// 15-27 ms). A TRUNCATE checkpoint once the log passes 256 KiB (about every
// ten appends) bounds both. It never waits: with a reader active (a long
// verify), it copies what it can and the next append tries again.
func (r *Register) trimWAL(conn *sql.Conn) {
	fi, err := os.Stat(r.path + "-wal")
	if err != nil || fi.Size() < walTrimBytes {
		return
	}
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
		e.CatalogVersion, e.CatalogHash, e.Version, e.Ref, e.Label, e.PrevHash, e.Hash)
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
