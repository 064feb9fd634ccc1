package register

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver (cgo)
)

// DefaultBusyTimeout is how long an append waits for another process that
// holds the register's write lock before giving up with ErrLocked.
const DefaultBusyTimeout = 5 * time.Second

// Options tune Open. The zero value is the default.
type Options struct {
	// BusyTimeout is how long to wait for a lock (default 5 s).
	BusyTimeout time.Duration
}

// Register is an open register database.
type Register struct {
	db       *sql.DB
	path     string
	busy     time.Duration
	readOnly bool
	warnings []string
	// schema is the file's schema version once opened: a read-only open
	// of an older register cannot migrate it, so reads name the columns
	// it lacks as empty values (columnsFor).
	schema int

	// progress, when set, hears the sequence number reached by long reads
	// (SetProgress).
	progress func(seq int64)

	mu     sync.Mutex // serialises this process's appends (other processes: BEGIN IMMEDIATE)
	idOnce sync.Once
	id     string
	idErr  error
}

// Open opens the register at path for appending, creating the directory
// (0700) and the file (0600) if they do not exist, and migrating the schema
// to the current version. Permissions of an existing directory or file are
// not changed; if they let others read the register, Warnings says so.
func Open(path string) (*Register, error) { return OpenWith(path, Options{}) }

// OpenWith is Open with options.
func OpenWith(path string, o Options) (*Register, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	busy := o.BusyTimeout
	if busy <= 0 {
		busy = DefaultBusyTimeout
	}
	r := &Register{path: path, busy: busy}
	if err := checkFiles(path); err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, r.wrap(err)
	}
	// Create the file 0600 before SQLite would create it 0644; an existing
	// one (every call but the first) costs a stat, not an open and close.
	// A missing or empty file where the anchor says a register was is not
	// started afresh: that is ErrVanished.
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 {
		if err := anchorForMissing(path, sizeOf(fi), err == nil); err != nil {
			return nil, err
		}
	}
	if err != nil {
		f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
		if err != nil {
			return nil, r.wrap(err)
		}
		f.Close()
	}
	r.checkModes()

	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL")
	q.Set("_busy_timeout", strconv.FormatInt(busy.Milliseconds(), 10))
	q.Set("_foreign_keys", "1")
	q.Set("_txlock", "immediate")
	if r.db, err = sql.Open("sqlite3", fileDSN(path, q)); err != nil {
		return nil, r.wrap(err)
	}
	if err := r.migrate(); err != nil {
		r.db.Close()
		return nil, r.wrap(err)
	}
	return r, nil
}

// OpenReadOnly opens an existing register for reading only (verify, log,
// export): no file is created and no migration runs. It fails with
// ErrSchemaTooNew if a newer sentinel wrote the file.
func OpenReadOnly(path string) (*Register, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	r := &Register{path: path, busy: DefaultBusyTimeout, readOnly: true}
	if err := checkFiles(path); err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 {
		if err := anchorForMissing(path, sizeOf(fi), err == nil); err != nil {
			return nil, err
		}
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{Path: path, Class: ErrNotExist, Detail: "does not exist", Cause: err}
		}
		return nil, r.wrap(err)
	}
	r.checkModes()
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", strconv.FormatInt(r.busy.Milliseconds(), 10))
	if r.db, err = sql.Open("sqlite3", fileDSN(path, q)); err != nil {
		return nil, r.wrap(err)
	}
	v, err := r.schemaVersion()
	if err != nil && r.walUnreadable(err) {
		// A WAL database on read-only media whose -shm cannot be created:
		// SQLite can still read it when told the file will not change.
		r.db.Close()
		q.Set("immutable", "1")
		if r.db, err = sql.Open("sqlite3", fileDSN(path, q)); err != nil {
			return nil, r.wrap(err)
		}
		r.warnings = append(r.warnings, "opened as immutable: the directory cannot hold the register's shared-memory file")
		v, err = r.schemaVersion()
	}
	if err == nil {
		err = r.checkVersion(v, false)
	}
	if err != nil {
		r.db.Close()
		return nil, r.wrap(err)
	}
	r.schema = v
	return r, nil
}

// checkFiles refuses a register whose database, write-ahead log or
// shared-memory file is there but is not a regular file: SQLite would block
// reading a FIFO, log into /dev/zero through a symlink (losing the newest
// entries), or fail on a directory only after the hook had decided. A
// symlinked database is followed (SQLite follows it too, and keeps its
// -wal and -shm beside the target); -wal and -shm are never symlinks
// (SQLite refuses them). Missing files are SQLite's to create. What is
// found is named, so the operator is not sent to reset an intact register.
// A swap between this check and SQLite's open is not caught here; the
// anchor catches the entries it loses.
func checkFiles(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if t, err := filepath.EvalSymlinks(path); err == nil {
			path = t
		}
	}
	for i, name := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Lstat(name)
		if err != nil {
			if IsDescriptors(err) {
				return descriptors(name, err)
			}
			continue
		}
		if fi.Mode().IsRegular() {
			continue
		}
		what := modeName(fi.Mode())
		if fi.Mode()&os.ModeSymlink != 0 {
			what = "a symlink (" + linkTarget(name) + ")"
		}
		fix := "move it aside (mv " + name + " " + name + ".refused); if it replaced the register's own file, the entries in it are lost and the next append says so"
		if i == 0 {
			fix = "move it aside; the register that was there is gone (sentinel register reset --accept-loss starts a new one)"
		}
		return &Error{Path: path, Class: ErrRefused, Detail: "refused: " + filepath.Base(name) + " is " + what + ", not a regular file: " + fix}
	}
	return nil
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return 0
	}
	return fi.Size()
}

// walUnreadable reports whether err is SQLite failing to open the WAL
// index of a read-only database.
func (r *Register) walUnreadable(err error) bool {
	err = r.wrap(err)
	for _, c := range []error{ErrNotRegister, ErrSchemaTooNew, ErrCorrupt, ErrLocked} {
		if errors.Is(err, c) {
			return false
		}
	}
	return true
}

// fileDSN builds a SQLite URI filename; the path is escaped so that "?",
// "#" and "%" in a directory name cannot be read as URI syntax.
func fileDSN(path string, q url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	return u.String()
}

func (r *Register) wrap(err error) error {
	if err == nil {
		return nil
	}
	// A file swapped for a FIFO, a directory or a symlink after Open
	// looked: that is what went wrong, whatever SQLite says.
	if ferr := checkFiles(r.path); ferr != nil {
		return ferr
	}
	return classify(r.path, r.busy, err)
}

// checkModes records a warning for a register others may read: it holds the
// tool inputs of every call.
func (r *Register) checkModes() {
	dir := filepath.Dir(r.path)
	if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o077 != 0 {
		r.warnings = append(r.warnings, fmt.Sprintf("directory %s is accessible to others (mode %04o); fix: chmod 700 %s", dir, fi.Mode().Perm(), dir))
	}
	if fi, err := os.Stat(r.path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		r.warnings = append(r.warnings, fmt.Sprintf("register %s is readable by others (mode %04o); fix: chmod 600 %s", r.path, fi.Mode().Perm(), r.path))
	}
}

// Warnings lists problems that did not stop Open (loose permissions, an
// immutable read-only open).
func (r *Register) Warnings() []string { return append([]string(nil), r.warnings...) }

// Path is the register's database file.
func (r *Register) Path() string { return r.path }

// Dir is the directory that holds the register and its fallback journal.
func (r *Register) Dir() string { return filepath.Dir(r.path) }

// DB gives other packages (seal) the database for their own tables. They
// must not write to the entries table.
func (r *Register) DB() *sql.DB { return r.db }

// ReadOnly reports whether the register was opened with OpenReadOnly.
func (r *Register) ReadOnly() bool { return r.readOnly }

// Close closes the database.
func (r *Register) Close() error { return r.db.Close() }

// ID is the register's random identifier, drawn once when it was created;
// seals name the register by it.
func (r *Register) ID() string {
	r.idOnce.Do(func() {
		r.idErr = r.db.QueryRow(`SELECT value FROM meta WHERE key = 'register_id'`).Scan(&r.id)
	})
	return r.id
}

// newID draws a register id: 16 random bytes, hex.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// conn returns a dedicated connection for one transaction.
func (r *Register) conn() (*sql.Conn, error) {
	c, err := r.db.Conn(context.Background())
	return c, r.wrap(err)
}
