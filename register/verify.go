package register

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
)

// Problem kinds.
const (
	ProblemContent    = "content"    // the hash does not match the entry's fields
	ProblemLink       = "link"       // PrevHash is not the previous entry's hash
	ProblemSequence   = "sequence"   // a gap, a repeat, or a truncated tail
	ProblemCommitment = "commitment" // sha256(Salt || Input) is not the Commitment
	ProblemDecode     = "decode"     // the entry could not be read
	ProblemVanished   = "vanished"   // not the register the anchor remembers
	ProblemSchema     = "schema"     // an index, table or trigger missing, changed or not sentinel's (SchemaProblem)
)

// Problem is the first place a chain does not hold.
type Problem struct {
	Seq  int64  `json:"seq"`
	Kind string `json:"kind"`
	Msg  string `json:"message"`
}

func (p *Problem) Error() string { return p.Msg }

// Report is the result of walking a chain.
type Report struct {
	Entries int64  `json:"entries"` // entries checked and found good
	Head    string `json:"head"`    // hash of the last good entry (GenesisHash if none)
	// Journaled counts entries merged from the fallback journal (Verify
	// only): written by whatever could write that file, see Integrity.
	Journaled int64    `json:"journaled,omitempty"`
	Problem   *Problem `json:"problem,omitempty"`
}

// OK reports whether the whole chain held.
func (r Report) OK() bool { return r.Problem == nil }

func (r Report) String() string {
	if r.Problem != nil {
		return fmt.Sprintf("BROKEN: %s (%d entries good before it)", r.Problem.Msg, r.Entries)
	}
	return fmt.Sprintf("ok: %d entries, head %s", r.Entries, r.Head)
}

// VerifyChain walks a chain of entries from the first (Seq 1, PrevHash
// GenesisHash). next returns the entries in order and io.EOF (or a nil
// entry) at the end; it may reuse one *Entry, VerifyChain keeps nothing of
// it but its hash.
//
// Every entry is checked for its position (Seq), its hash (content) and
// its link to the previous one. An entry with a Salt also has its
// Commitment checked against sha256(Salt || Input); an entry without a Salt
// is a commitment-only entry (as published in a bundle) and verifies by
// hash and link alone.
func VerifyChain(next func() (*Entry, error)) Report {
	return VerifyChainFrom(0, GenesisHash, next)
}

// VerifyChainFrom walks a chain segment that continues after entry
// afterSeq whose hash is afterHash (a bundle that starts mid-register).
func VerifyChainFrom(afterSeq int64, afterHash string, next func() (*Entry, error)) Report {
	v := verifier{rep: Report{Head: afterHash}, seq: afterSeq, good: afterSeq}
	for {
		e, err := next()
		if errors.Is(err, io.EOF) || (err == nil && e == nil) {
			return v.rep
		}
		if err != nil {
			v.fail(v.seq+1, ProblemDecode, "entry %d: cannot be read: %v", v.seq+1, err)
			return v.rep
		}
		if !v.check(e) {
			return v.rep
		}
	}
}

type verifier struct {
	rep  Report
	seq  int64 // last seq seen
	good int64
	h    hasher
	sum  [64]byte
}

func (v *verifier) fail(seq int64, kind, format string, args ...any) {
	v.rep.Problem = &Problem{Seq: seq, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// check verifies one entry against the chain so far.
func (v *verifier) check(e *Entry) bool {
	want := v.seq + 1
	switch {
	case e.Seq == want:
	case e.Seq > want && v.seq == 0:
		v.fail(want, ProblemSequence, "the chain starts at entry %d: %s missing", e.Seq, missing(want, e.Seq-1))
		return false
	case e.Seq > want:
		v.fail(want, ProblemSequence, "entry %d follows entry %d: %s missing", e.Seq, v.seq, missing(want, e.Seq-1))
		return false
	default:
		v.fail(want, ProblemSequence, "the entry at position %d has sequence number %d", want, e.Seq)
		return false
	}
	v.seq = e.Seq
	if e.Salt != nil && Commit(e.Salt, e.Input) != e.Commitment {
		v.fail(e.Seq, ProblemCommitment, "entry %d: commitment does not match its input", e.Seq)
		return false
	}
	v.h.sum(e, v.sum[:])
	if !bytes.Equal(v.sum[:], []byte(e.Hash)) {
		v.fail(e.Seq, ProblemContent, "entry %d: hash does not match its content", e.Seq)
		return false
	}
	if e.PrevHash != v.rep.Head {
		if e.Seq == 1 {
			v.fail(e.Seq, ProblemLink, "entry 1: previous hash is not the genesis hash")
		} else {
			v.fail(e.Seq, ProblemLink, "entry %d: previous hash does not match entry %d", e.Seq, e.Seq-1)
		}
		return false
	}
	v.rep.Entries++
	v.rep.Head = e.Hash
	return true
}

func missing(from, to int64) string {
	if from == to {
		return fmt.Sprintf("entry %d is", from)
	}
	return fmt.Sprintf("entries %d..%d are", from, to)
}

// Integrity is what a whole-register read learns beside the chain, all
// from the same read transaction as the entries.
type Integrity struct {
	// Written is the highest sequence number SQLite ever assigned
	// (sqlite_sequence): more than the last entry means a deleted tail.
	Written int64 `json:"written"`
	// Journaled counts the entries merged from the fallback journal. Any
	// process of the operator's user (the agent included) can write that
	// file, so these entries prove only that a line said so.
	Journaled int64 `json:"journaled"`
	// Vanished is set (ErrVanished) when the register is not the one the
	// anchor beside it remembers: replaced, rolled back or rewritten.
	Vanished error `json:"-"`
}

// EachChecked is Each(1, fn) over one read transaction that also reads the
// register's Integrity, so that the entries, the sequence counter and the
// anchor comparison describe the same instant even while hooks append
// (read in separate statements, a verify racing an append saw the counter
// ahead of the chain and cried "truncated").
func (r *Register) EachChecked(fn func(e *Entry, err error) bool) (Integrity, error) {
	var in Integrity
	// The anchor is read before the snapshot starts: it is written after
	// each commit, so whatever it says is already in the snapshot.
	a, aerr := ReadAnchor(r.Dir())
	conn, err := r.db.Conn(bg)
	if err != nil {
		return in, r.wrap(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(bg, `BEGIN DEFERRED`); err != nil {
		return in, r.wrap(err)
	}
	defer conn.ExecContext(bg, `ROLLBACK`)
	// The chain first, then the counters: without the one transaction an
	// append between the two reads is exactly the false "truncated".
	streamErr := r.streamOn(conn, 1, fn)
	q := connQuerier{conn}
	var written sql.NullInt64
	if err := q.QueryRow(`SELECT seq FROM sqlite_sequence WHERE name = 'entries'`).Scan(&written); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return in, r.wrap(err)
	}
	in.Written = written.Int64
	// Registers before schema v3 have no seq column in the ledger.
	q.QueryRow(`SELECT count(seq) FROM journal_merged`).Scan(&in.Journaled)
	if err := r.compareAnchor(q, a, aerr); errors.Is(err, ErrVanished) {
		in.Vanished = err
	} else if err != nil {
		return in, err
	}
	return in, r.wrap(streamErr)
}

// connQuerier adapts a *sql.Conn to querier.
type connQuerier struct{ c *sql.Conn }

func (q connQuerier) QueryRow(query string, args ...any) *sql.Row {
	return q.c.QueryRowContext(bg, query, args...)
}

// Verify walks the whole register. Beyond the chain itself it compares the
// last entry with the highest sequence number SQLite ever assigned, so a
// register whose tail was deleted says so, and the register with its
// anchor (ProblemVanished). A deliberate forger can reset both: the seal
// in Rekor is what pins the head.
func (r *Register) Verify() Report {
	v := verifier{rep: Report{Head: GenesisHash}}
	in, err := r.EachChecked(func(e *Entry, err error) bool {
		if err != nil {
			v.fail(v.seq+1, ProblemDecode, "entry %d: cannot be read: %v", v.seq+1, err)
			return false
		}
		return v.check(e)
	})
	rep := v.rep
	rep.Journaled = in.Journaled
	if err != nil && rep.Problem == nil {
		rep.Problem = &Problem{Seq: v.seq + 1, Kind: ProblemDecode, Msg: r.wrap(err).Error()}
	}
	if rep.Problem == nil {
		rep.Problem = in.Check(rep.Entries)
	}
	if rep.Problem == nil {
		// The chain holds, but the session memory reads the register through
		// its indexes: a dropped or replaced one switches memory off.
		if p, err := r.SchemaProblem(bg); err != nil || p != "" {
			if err != nil {
				p = "the schema could not be read: " + err.Error()
			}
			rep.Problem = &Problem{Seq: rep.Entries + 1, Kind: ProblemSchema, Msg: p}
		}
	}
	return rep
}

// Check turns the integrity findings for a chain of n good entries into
// the first problem (nil when none): a truncated tail SQLite's counter
// remembers, else a register that is not the one the anchor remembers.
func (in Integrity) Check(n int64) *Problem {
	if in.Written > n {
		return &Problem{Seq: n + 1, Kind: ProblemSequence,
			Msg: fmt.Sprintf("the register ends at entry %d but entry %d was written: %s missing (truncated)",
				n, in.Written, missing(n+1, in.Written))}
	}
	if in.Vanished != nil {
		return &Problem{Seq: n + 1, Kind: ProblemVanished, Msg: in.Vanished.Error()}
	}
	return nil
}
