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
	Entries int64    `json:"entries"` // entries checked and found good
	Head    string   `json:"head"`    // hash of the last good entry (GenesisHash if none)
	Problem *Problem `json:"problem,omitempty"`
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

// Verify walks the whole register. Beyond the chain itself it compares the
// last entry with the highest sequence number SQLite ever assigned, so a
// register whose tail was deleted says so (a deliberate forger can reset
// that too: the seal in Rekor is what pins the head).
func (r *Register) Verify() Report {
	v := verifier{rep: Report{Head: GenesisHash}}
	err := r.stream(1, func(e *Entry, err error) bool {
		if err != nil {
			v.fail(v.seq+1, ProblemDecode, "entry %d: cannot be read: %v", v.seq+1, err)
			return false
		}
		return v.check(e)
	})
	rep := v.rep
	if err != nil && rep.Problem == nil {
		rep.Problem = &Problem{Seq: v.seq + 1, Kind: ProblemDecode, Msg: r.wrap(err).Error()}
	}
	if rep.Problem != nil {
		return rep
	}
	var written sql.NullInt64
	err = r.db.QueryRow(`SELECT seq FROM sqlite_sequence WHERE name = 'entries'`).Scan(&written)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		rep.Problem = &Problem{Seq: rep.Entries + 1, Kind: ProblemDecode, Msg: r.wrap(err).Error()}
		return rep
	}
	if written.Int64 > rep.Entries {
		rep.Problem = &Problem{Seq: rep.Entries + 1, Kind: ProblemSequence,
			Msg: fmt.Sprintf("the register ends at entry %d but entry %d was written: %s missing (truncated)",
				rep.Entries, written.Int64, missing(rep.Entries+1, written.Int64))}
	}
	return rep
}
