package register

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// AnchorFile, beside the register, remembers the register this machine
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
	if err := json.Unmarshal(b, &a); err != nil || a.ID == "" || a.Seq < 1 || len(a.Hash) != 64 {
		return nil, fmt.Errorf("%s: not a register anchor", path)
	}
	return &a, nil
}

// writeAnchor replaces the anchor atomically (a new file renamed over it).
// It is not fsynced: after a power loss it may lag the register by the
// last entries, which only weakens the check for those, never raises a
// false alarm (the anchor is written after the commit, so it never runs
// ahead of the register).
func writeAnchor(dir string, a Anchor) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+AnchorFile+"."+strconv.Itoa(os.Getpid()))
	f, err := openPlain(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		os.Remove(tmp) // a FIFO or symlink planted under the temporary name
		if f, err = openPlain(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
			return err
		}
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, AnchorFile))
	}
	if err != nil {
		os.Remove(tmp)
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
		return vanished(r.path, "the register's anchor cannot be read ("+aerr.Error()+")", nil)
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
		return vanished(path, "the register's anchor cannot be read ("+err.Error()+") and the register file is missing or empty", nil)
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
