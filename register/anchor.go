package register

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// AnchorFile is the file, beside the register, that remembers the register this machine
// had: its id and the last entry written (seq and hash). Every append
// compares the register with it, so a register that was deleted, emptied,
// replaced by another file, rolled back to an older copy or lost its
// write-ahead log is noticed by the next append (ErrVanished) instead of
// being silently started afresh. It is rewritten after every commit.
//
// What it cannot catch: the agent runs as the operator's user, so it can
// delete the anchor together with the register (then the next call starts
// a fresh register as on a new machine), or rewrite the anchor to match a
// forged register. Those are caught only against a seal (the head sealed
// in Rekor); docs/register.md says so.
const AnchorFile = "register.anchor"

const maxAnchorBytes = 4 << 10

// Anchor is the register a machine had.
type Anchor struct {
	ID   string `json:"register_id"`
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// ReadAnchor reads the anchor in dir: nil (and no error) when there is
// none. A file that is not a small regular JSON file is an error.
func ReadAnchor(dir string) (*Anchor, error) {
	var a *Anchor
	var err error
	for try := 0; try < 3; try++ {
		if a, err = readAnchorOnce(dir); err == nil || !errors.Is(err, errNotAnchor) {
			return a, err
		}
		time.Sleep(time.Millisecond) // maybe caught a write half done
	}
	return a, err
}

var errNotAnchor = errors.New("not a register anchor")

func readAnchorOnce(dir string) (*Anchor, error) {
	path := filepath.Join(dir, AnchorFile)
	f, err := openPlain(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxAnchorBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxAnchorBytes {
		return nil, fmt.Errorf("%s: over %d bytes", path, maxAnchorBytes)
	}
	var a Anchor
	if err := json.Unmarshal(bytes.TrimSpace(b), &a); err != nil || a.ID == "" || a.Seq < 1 || len(a.Hash) != 64 {
		return nil, fmt.Errorf("%s: %w", path, errNotAnchor)
	}
	return &a, nil
}

// anchorRecord is the anchor's fixed size: JSON padded with spaces.
const anchorRecord = 256

// writeAnchor overwrites the anchor in place with one fixed-size write (a
// new file renamed over it cost ~0.3 ms of CPU per append in inode and
// directory work). A reader that catches the write half done sees invalid
// JSON and reads again (ReadAnchor). It is not fsynced: after a power loss
// it may lag the register by the last entries, which only weakens the
// check for those, never raises a false alarm (the anchor is written after
// the commit, so it never runs ahead of the register).
func writeAnchor(dir string, a Anchor) error {
	b, err := json.Marshal(a)
	if err != nil || len(b) >= anchorRecord {
		return fmt.Errorf("register anchor: cannot encode %+v: %v", a, err)
	}
	rec := make([]byte, anchorRecord)
	copy(rec, b)
	for i := len(b); i < anchorRecord-1; i++ {
		rec[i] = ' '
	}
	rec[anchorRecord-1] = '\n'
	f, err := openPlain(filepath.Join(dir, AnchorFile), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(rec, 0)
	if fi, serr := f.Stat(); err == nil && serr == nil && fi.Size() > anchorRecord {
		err = f.Truncate(anchorRecord)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

const vanishedFix = "; calls are answered fail-closed until the operator runs: sentinel register reset --accept-loss"

// vanished is the ErrVanished error for the register at path.
func vanished(path, what string, a *Anchor) error {
	had := ""
	if a != nil {
		had = fmt.Sprintf("; this machine's register was %s with %d entries (head %.16s, per %s)", a.ID, a.Seq, a.Hash, AnchorFile)
	}
	return &Error{Path: path, Class: ErrVanished, Detail: what + had + vanishedFix}
}

// unreadableAnchor is the error for an anchor that could not be read: out
// of descriptors says so (the register is intact as far as is known, and a
// reset would retire it); anything else is ErrVanished.
func unreadableAnchor(path string, err error, more string) error {
	if IsDescriptors(err) {
		return descriptors(path, err)
	}
	return vanished(path, "the register's anchor cannot be read ("+err.Error()+")"+more, nil)
}

// checkAnchor compares the register, as seen in q (inside the append's
// transaction, or verify's read transaction), with the anchor a.
func (r *Register) checkAnchor(q querier, a *Anchor, id string, head int64) error {
	if a == nil {
		return nil
	}
	if id != a.ID {
		return vanished(r.path, fmt.Sprintf("the register was replaced: this file is register %s with %d entries", id, head), a)
	}
	if head < a.Seq {
		return vanished(r.path, fmt.Sprintf("the register was rolled back or truncated: it ends at entry %d but entry %d was written", head, a.Seq), a)
	}
	var h string
	if err := q.QueryRow(`SELECT hash FROM entries WHERE seq = ?`, a.Seq).Scan(&h); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if h != a.Hash {
		return vanished(r.path, fmt.Sprintf("the register was rewritten: entry %d is not the entry written (hash %.16s, written %.16s)", a.Seq, h, a.Hash), a)
	}
	return nil
}

// compareAnchor reads the register's id and head in q (a read
// transaction) and compares them with the anchor a (read before the
// transaction began; aerr its read error).
func (r *Register) compareAnchor(q querier, a *Anchor, aerr error) error {
	if aerr != nil {
		return unreadableAnchor(r.path, aerr, "")
	}
	var id string
	if err := q.QueryRow(`SELECT value FROM meta WHERE key = 'register_id'`).Scan(&id); err != nil {
		return r.wrap(err)
	}
	head, _, err := headOf(q)
	if err != nil {
		return r.wrap(err)
	}
	return r.checkAnchor(q, a, id, head)
}

// anchorForMissing is the ErrVanished error for a register file that is
// missing or empty while an anchor says one existed (nil when no anchor).
func anchorForMissing(path string, size int64, exists bool) error {
	a, err := ReadAnchor(filepath.Dir(path))
	if err != nil {
		return unreadableAnchor(path, err, " and the register file is missing or empty")
	}
	if a == nil {
		return nil
	}
	if !exists {
		return vanished(path, "the register is gone (the file does not exist)", a)
	}
	if size == 0 {
		return vanished(path, "the register file is empty", a)
	}
	return nil
}
