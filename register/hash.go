package register

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"
)

// GenesisHash is the PrevHash of the first entry: 64 zeros.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// entryDomain separates entry hashes from every other sha256 in sentinel
// (seals, Merkle nodes), so a hash of one kind can never pass for another.
const entryDomain = "sentinel/register/entry/v1\n"

// Commit returns the commitment to a tool input: hex(sha256(salt || input)).
func Commit(salt, input []byte) string {
	h := sha256.New()
	h.Write(salt)
	h.Write(input)
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

// EntryHash returns hex(sha256(encoding)) of every field of e except Input
// and Salt, so that a commitment-only entry verifies as well as a full one.
// The encoding (documented in docs/register.md) is the domain prefix followed
// by the fields in a fixed order; strings are length-prefixed, so no two
// different entries share an encoding.
func EntryHash(e *Entry) string {
	var dst [2 * sha256.Size]byte
	var h hasher
	h.sum(e, dst[:])
	return string(dst[:])
}

// hasher computes entry hashes reusing one buffer: Verify hashes a million
// entries and should not allocate for each.
type hasher struct{ buf []byte }

// sum writes the hex hash of e into dst (len 64).
func (h *hasher) sum(e *Entry, dst []byte) {
	h.buf = appendEncoding(h.buf[:0], e)
	s := sha256.Sum256(h.buf)
	hex.Encode(dst, s[:])
}

// appendEncoding appends the canonical encoding of e (without Input and
// Salt) to b.
func appendEncoding(b []byte, e *Entry) []byte {
	b = append(b, entryDomain...)
	b = appendInt(b, e.Seq)
	b = appendString(b, e.Kind)
	b = appendTime(b, e.Time)
	b = appendString(b, e.SessionID)
	b = appendString(b, e.ToolUseID)
	b = appendString(b, e.Cwd)
	b = appendString(b, e.Tool)
	b = appendString(b, e.Commitment)
	b = appendString(b, e.Decision)
	b = binary.BigEndian.AppendUint64(b, uint64(len(e.Rules)))
	for _, r := range e.Rules {
		b = appendString(b, r)
	}
	b = appendString(b, e.Reason)
	if e.Attended {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = appendString(b, e.PermissionMode)
	b = appendString(b, e.CatalogVersion)
	b = appendString(b, e.CatalogHash)
	b = appendString(b, e.Version)
	b = appendInt(b, e.Ref)
	b = appendString(b, e.Label)
	b = appendString(b, e.PrevHash)
	if e.Facts != "" {
		// Added with schema v4, after every older field, and only when
		// set: an entry without facts hashes as it always did.
		b = append(b, 'F')
		b = appendString(b, e.Facts)
	}
	if e.Harness != "" {
		// Schema v5, likewise: a Claude Code entry ("") hashes as before.
		b = append(b, 'H')
		b = appendString(b, e.Harness)
	}
	return b
}

func appendInt(b []byte, v int64) []byte { return binary.BigEndian.AppendUint64(b, uint64(v)) }

func appendString(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(len(s)))
	return append(b, s...)
}

// appendTime encodes t as its RFC 3339 (nanosecond, UTC) text, itself
// length-prefixed. The text is formatted into the buffer in place.
func appendTime(b []byte, t time.Time) []byte {
	at := len(b)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0)
	b = t.UTC().AppendFormat(b, time.RFC3339Nano)
	binary.BigEndian.PutUint64(b[at:], uint64(len(b)-at-8))
	return b
}
