package seal

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/sentinel-guard/sentinel/register"
)

// Withheld reports whether e is a withheld entry of a bundle: only its
// sequence number, hash and previous hash are shown (no kind, no
// commitment). Its content is committed by its hash, which covers the
// entry's salted input commitment, so none of its fields can be guessed
// from it.
func Withheld(e *register.Entry) bool { return e.Kind == "" && e.Commitment == "" }

// walkChain is register.VerifyChain for a stream that may hold withheld
// entries: full entries are checked by register's own verifier, in runs;
// a withheld one is checked for its position and its link only, and its
// hash is taken as given (the seals' Merkle roots then cover it).
func walkChain(next EntryStream) register.Report {
	rep := register.Report{Head: register.GenesisHash}
	var seq int64
	var held *register.Entry // a withheld entry that ended the last run
	var streamErr error
	done := false
	for !done {
		run := register.VerifyChainFrom(seq, rep.Head, func() (*register.Entry, error) {
			e, err := next()
			if errors.Is(err, io.EOF) || (err == nil && e == nil) {
				done = true
				return nil, io.EOF
			}
			if err != nil {
				done = true
				streamErr = err
				return nil, err
			}
			if Withheld(e) {
				held = e
				return nil, io.EOF
			}
			return e, nil
		})
		rep.Entries += run.Entries
		rep.Head = run.Head
		if run.Problem != nil {
			rep.Problem = run.Problem
			return rep
		}
		seq += run.Entries
		if streamErr != nil || held == nil {
			continue
		}
		e := held
		held = nil
		var p *register.Problem
		b, herr := hex.DecodeString(e.Hash)
		switch {
		case e.Seq != seq+1:
			p = &register.Problem{Seq: seq + 1, Kind: register.ProblemSequence, Msg: fmt.Sprintf("the entry at position %d has sequence number %d", seq+1, e.Seq)}
		case herr != nil || len(b) != 32:
			p = &register.Problem{Seq: e.Seq, Kind: register.ProblemContent, Msg: fmt.Sprintf("entry %d: withheld, and its hash is not 32 bytes of hex", e.Seq)}
		case e.PrevHash != rep.Head:
			p = &register.Problem{Seq: e.Seq, Kind: register.ProblemLink, Msg: fmt.Sprintf("entry %d: previous hash does not match entry %d", e.Seq, e.Seq-1)}
		case e.Input != nil || e.Salt != nil:
			p = &register.Problem{Seq: e.Seq, Kind: register.ProblemContent, Msg: fmt.Sprintf("entry %d: withheld, yet carries an input or salt", e.Seq)}
		}
		if p != nil {
			rep.Problem = p
			return rep
		}
		seq++
		rep.Entries++
		rep.Head = e.Hash
	}
	return rep
}
