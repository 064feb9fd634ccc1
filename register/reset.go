package register

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LabelReset labels the first entry of a register started by Reset.
const LabelReset = "register-reset"

// Continuity checks, without reading the whole chain, that the register at
// path is the one its anchor remembers: nil when it is (or when there is
// no anchor yet), an ErrVanished *Error saying what happened otherwise,
// and any other error when the register cannot be read at all.
func Continuity(path string) error {
	r, err := OpenReadOnly(path)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.continuity()
}

func (r *Register) continuity() error {
	a, aerr := ReadAnchor(r.Dir())
	if aerr != nil {
		return unreadableAnchor(r.path, aerr, "")
	}
	conn, err := r.db.Conn(bg)
	if err != nil {
		return r.wrap(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(bg, `BEGIN DEFERRED`); err != nil {
		return r.wrap(err)
	}
	defer conn.ExecContext(bg, `ROLLBACK`)
	return r.compareAnchor(connQuerier{conn}, a, nil)
}

// Reset starts a new register at path once the operator has accepted that
// the one the anchor remembers is lost (found says what was found: the
// ErrVanished message). The old files (register.db, -wal, -shm, the
// anchor), if any, are moved aside with a ".lost-<time>" suffix as
// evidence, never deleted. The new register's first entry (after any
// pending journal lines) is an error entry labelled LabelReset that names
// the lost register, its last entry and where its files went; the anchor
// then follows the new register. Pending journal lines are merged into
// the new register.
func Reset(path, found string) (*Entry, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	a, aerr := ReadAnchor(dir)
	stamp := time.Now().UTC().Format("20060102T150405Z")
	var moved []string
	for _, name := range []string{path, path + "-wal", path + "-shm", filepath.Join(dir, AnchorFile)} {
		if _, err := os.Lstat(name); err != nil {
			continue
		}
		to := name + ".lost-" + stamp
		if err := os.Rename(name, to); err != nil {
			return nil, fmt.Errorf("register reset: moving %s aside: %w", name, err)
		}
		moved = append(moved, filepath.Base(to))
	}
	syncDir(dir)
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var b strings.Builder
	b.WriteString("register reset by the operator (sentinel register reset --accept-loss)")
	if found = strings.TrimSuffix(found, vanishedFix); found != "" {
		b.WriteString(": " + found)
	}
	switch {
	case a != nil:
		fmt.Fprintf(&b, "; lost register %s had %d entries, head %s", a.ID, a.Seq, a.Hash)
	case aerr != nil:
		fmt.Fprintf(&b, "; the anchor could not be read: %v", aerr)
	}
	if len(moved) > 0 {
		fmt.Fprintf(&b, "; old files moved aside: %s", strings.Join(moved, ", "))
	}
	e := &Entry{Kind: KindError, Label: LabelReset, Rules: []string{}, Reason: b.String()}
	if err := r.Append(e); err != nil {
		return nil, err
	}
	return e, nil
}

// probeBytes is what Probe writes beside the register: two appends' worth
// of write-ahead log, so a disk that cannot take the next append fails.
const probeBytes = 64 << 10

// Probe proves the register at path can take an append now, by writing:
// a probeBytes file beside it (written, fsynced, removed) and a real
// commit of a probe row in the register's meta table (not an entry: the
// chain is untouched), each waiting at most wait for a lock. A read-only
// directory or file, a full disk or a held lock is an error classified
// like Append's (ErrReadOnly, ErrDiskFull, ErrLocked).
func Probe(path string, wait time.Duration) error {
	dir := filepath.Dir(path)
	if err := writeScratch(dir, probeBytes); err != nil {
		if p := errnoClass(path, err); p != nil {
			p.Detail = "cannot write " + size64(probeBytes) + " beside the register in " + dir + ": " + p.Detail
			return p
		}
		return &Error{Path: path, Detail: "cannot write beside the register: " + err.Error(), Cause: err}
	}
	r, err := OpenWith(path, Options{BusyTimeout: wait})
	if err != nil {
		return err
	}
	defer r.Close()
	conn, err := r.conn()
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(bg, nil) // BEGIN IMMEDIATE
	if err != nil {
		return r.wrap(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES ('probe', ?)`, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return r.wrap(err)
	}
	return r.wrap(tx.Commit())
}

func size64(n int) string { return fmt.Sprintf("%d KiB", n>>10) }
