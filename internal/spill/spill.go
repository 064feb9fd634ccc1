// Package spill holds maps keyed by 16 bytes (a transcript.Key, a digest)
// that stay in memory while small and move to a private temporary SQLite
// file once they hold Cap entries, so that a join of 10M transcript calls
// with the register keeps the same memory as one of 10K. The answers are
// exact either way: the file is the map, not a cache or a sketch.
//
// The temporary database is SQLite's own (an empty file name): created in
// SQLITE_TMPDIR or TMPDIR (else /var/tmp, /tmp), unlinked by SQLite when it
// is opened, so nothing is left behind, even by a killed process.
//
// Errors are sticky: a failed operation answers "absent" from then on and
// Err returns the first error; callers check Err before they use a result
// (the transcript reader's callbacks have no error to return).
package spill

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver (cgo), as register uses
)

// Key is what a map is keyed by: 16 bytes.
type Key interface{ ~[16]byte }

// DefaultCap is the number of entries a map keeps in memory before it
// moves to disk: a few hundred KiB for a map of keys and flags, about
// 1.3 MiB for one of unguarded calls (a spilled map then has a 1 MiB
// SQLite cache). Most operators' transcripts fit in memory. SENTINEL_SPILL_AT overrides it (tests run the disk
// path on small data with SENTINEL_SPILL_AT=1).
var DefaultCap atomic.Int64

func init() {
	DefaultCap.Store(1 << 13)
	if n, err := strconv.ParseInt(os.Getenv("SENTINEL_SPILL_AT"), 10, 64); err == nil && n > 0 {
		DefaultCap.Store(n)
	}
}

// spills counts the maps that moved to disk, for tests that must know the
// disk path ran.
var spills atomic.Int64

// Spills is how many maps have moved to disk in this process.
func Spills() int64 { return spills.Load() }

// Codec turns a value into bytes and back, for the disk form.
type Codec[V any] struct {
	Enc func(V) []byte
	Dec func([]byte) V
}

// Byte is the codec of a one-byte value (flags, a small code).
var Byte = Codec[uint8]{
	Enc: func(v uint8) []byte { return []byte{v} },
	Dec: func(b []byte) uint8 {
		if len(b) == 0 {
			return 0
		}
		return b[0]
	},
}

// Map is a map[Key]V that spills to disk. Not safe for concurrent use.
type Map[K Key, V any] struct {
	mem   map[K]V
	cap   int64
	codec Codec[V]
	db    *sql.DB
	conn  *sql.Conn
	get   *sql.Stmt
	put   *sql.Stmt
	del   *sql.Stmt
	ops   int // writes since the last commit
	err   error
}

// New returns an empty map that spills past DefaultCap entries.
func New[K Key, V any](c Codec[V]) *Map[K, V] {
	return &Map[K, V]{mem: map[K]V{}, cap: DefaultCap.Load(), codec: c}
}

// Err is the first error the map met.
func (m *Map[K, V]) Err() error { return m.err }

// Spilled says whether the map is on disk.
func (m *Map[K, V]) Spilled() bool { return m.conn != nil }

// Len is the number of entries (on disk it counts them: call it rarely).
func (m *Map[K, V]) Len() int64 {
	if m.err != nil || m.conn == nil {
		return int64(len(m.mem))
	}
	var n int64
	if err := m.conn.QueryRowContext(context.Background(), "SELECT count(*) FROM m").Scan(&n); err != nil {
		m.fail(err)
	}
	return n
}

func (m *Map[K, V]) fail(err error) {
	if m.err == nil && err != nil {
		m.err = fmt.Errorf("temporary file of a large join: %w", err)
	}
}

// commitEvery bounds a write transaction (SQLite keeps its dirty pages
// until commit, within its cache_size).
const commitEvery = 1 << 14

func (m *Map[K, V]) spill() {
	spills.Add(1)
	ctx := context.Background()
	db, err := sql.Open("sqlite3", "")
	if err != nil {
		m.fail(err)
		return
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		m.fail(err)
		return
	}
	m.db, m.conn = db, conn
	for _, q := range []string{
		"PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF", "PRAGMA cache_size=-1024", "PRAGMA temp_store=FILE",
		"CREATE TABLE m (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID",
		"BEGIN",
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			m.fail(err)
			return
		}
	}
	if m.get, err = conn.PrepareContext(ctx, "SELECT v FROM m WHERE k = ?"); err != nil {
		m.fail(err)
		return
	}
	if m.put, err = conn.PrepareContext(ctx, "INSERT INTO m (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v"); err != nil {
		m.fail(err)
		return
	}
	if m.del, err = conn.PrepareContext(ctx, "DELETE FROM m WHERE k = ?"); err != nil {
		m.fail(err)
		return
	}
	mem := m.mem
	m.mem = nil
	for k, v := range mem {
		m.diskPut(k, v)
	}
}

func (m *Map[K, V]) wrote() {
	if m.ops++; m.ops < commitEvery {
		return
	}
	m.ops = 0
	ctx := context.Background()
	if _, err := m.conn.ExecContext(ctx, "COMMIT"); err != nil {
		m.fail(err)
		return
	}
	if _, err := m.conn.ExecContext(ctx, "BEGIN"); err != nil {
		m.fail(err)
	}
}

// Get returns the value for k.
func (m *Map[K, V]) Get(k K) (V, bool) {
	var zero V
	if m.err != nil {
		return zero, false
	}
	if m.conn == nil {
		v, ok := m.mem[k]
		return v, ok
	}
	var b []byte
	switch err := m.get.QueryRow(keyBytes(k)).Scan(&b); err {
	case nil:
		return m.codec.Dec(b), true
	case sql.ErrNoRows:
		return zero, false
	default:
		m.fail(err)
		return zero, false
	}
}

// Has says whether k is in the map.
func (m *Map[K, V]) Has(k K) bool {
	_, ok := m.Get(k)
	return ok
}

// Put sets k to v.
func (m *Map[K, V]) Put(k K, v V) {
	if m.err != nil {
		return
	}
	if m.conn == nil {
		if _, ok := m.mem[k]; ok || int64(len(m.mem)) < m.cap {
			m.mem[k] = v
			return
		}
		m.spill()
		if m.err != nil {
			return
		}
	}
	m.diskPut(k, v)
}

func (m *Map[K, V]) diskPut(k K, v V) {
	if m.err != nil {
		return
	}
	if _, err := m.put.Exec(keyBytes(k), m.codec.Enc(v)); err != nil {
		m.fail(err)
		return
	}
	m.wrote()
}

// Delete removes k.
func (m *Map[K, V]) Delete(k K) {
	if m.err != nil {
		return
	}
	if m.conn == nil {
		delete(m.mem, k)
		return
	}
	if _, err := m.del.Exec(keyBytes(k)); err != nil {
		m.fail(err)
		return
	}
	m.wrote()
}

// Each calls fn for every entry, in no particular order; fn must not
// change the map (collect the keys to delete and delete them after).
func (m *Map[K, V]) Each(fn func(K, V) error) error {
	if m.err != nil {
		return m.err
	}
	if m.conn == nil {
		for k, v := range m.mem {
			if err := fn(k, v); err != nil {
				return err
			}
		}
		return nil
	}
	rows, err := m.conn.QueryContext(context.Background(), "SELECT k, v FROM m")
	if err != nil {
		m.fail(err)
		return m.err
	}
	defer rows.Close()
	for rows.Next() {
		var kb, vb []byte
		if err := rows.Scan(&kb, &vb); err != nil {
			m.fail(err)
			return m.err
		}
		var k [16]byte
		copy(k[:], kb)
		if err := fn(K(k), m.codec.Dec(vb)); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		m.fail(err)
	}
	return m.err
}

// Close releases the temporary file (SQLite deletes it).
func (m *Map[K, V]) Close() error {
	m.mem = nil
	if m.conn == nil {
		return nil
	}
	for _, s := range []*sql.Stmt{m.get, m.put, m.del} {
		if s != nil {
			s.Close()
		}
	}
	m.conn.Close()
	err := m.db.Close()
	m.conn, m.db = nil, nil
	return err
}

func keyBytes[K Key](k K) []byte {
	a := [16]byte(k)
	return a[:]
}

// OnDisk makes every map created from now until tb's cleanup move to disk
// at its second entry (tests of the disk path); the returned func says
// whether one did.
func OnDisk(tb interface{ Cleanup(func()) }) (spilled func() bool) {
	old := DefaultCap.Swap(1)
	tb.Cleanup(func() { DefaultCap.Store(old) })
	before := Spills()
	return func() bool { return Spills() > before }
}
