// Package bundle writes and reads export bundles: a self-contained,
// versioned JSON file with a register's entries (each shown in full, with
// its fields but not its input, or withheld), its register seals and
// artifact seals (protocol files, census) with Rekor's answers, and the
// operator's public key. `sentinel verify --bundle` needs nothing else.
//
// Reading streams: the header (everything but the entries) is read first and
// the entries one at a time, so verifying or replaying a bundle takes
// constant memory whatever its size. The writer puts "entries" last, so the
// header is read without touching the entries.
package bundle

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// Format is the version tag of the bundle format this sentinel writes.
// v2 added artifact seals and withheld entries; v1 bundles still read.
const Format = "sentinel-bundle/v2"

// formatV1 is read, never written.
const formatV1 = "sentinel-bundle/v1"

// Seal is a seal as a bundle carries it.
type Seal struct {
	ID         int64           `json:"id"`
	Kind       string          `json:"kind"`
	Size       uint64          `json:"size"`
	Root       string          `json:"root"`
	Head       string          `json:"head"`
	Prev       string          `json:"prev"`
	Checkpoint string          `json:"checkpoint"`
	Signature  []byte          `json:"signature"`
	RekorURL   string          `json:"rekor_url"`
	RekorUUID  string          `json:"rekor_uuid"`
	RekorEntry json.RawMessage `json:"rekor_entry"`
}

// Artifact is an artifact seal (a protocol file, a census) as a bundle
// carries it: the signed statement itself, so that its sha256 (what the log
// holds) can be recomputed, and Rekor's answer.
type Artifact struct {
	ID         int64           `json:"id"`
	Kind       string          `json:"kind"`
	Statement  string          `json:"statement"`
	Signature  []byte          `json:"signature"`
	RekorURL   string          `json:"rekor_url"`
	RekorUUID  string          `json:"rekor_uuid"`
	RekorEntry json.RawMessage `json:"rekor_entry"`
}

// Header is everything in a bundle but its entries.
type Header struct {
	Format      string     `json:"format"`
	RegisterID  string     `json:"register_id"`
	CreatedAt   time.Time  `json:"created_at"`
	OperatorKey string     `json:"operator_key"` // PEM
	Seals       []Seal     `json:"seals"`
	Artifacts   []Artifact `json:"artifacts"`
	// Rotations are the register's key rotations (the statement is signed
	// by the key before it, which operator_key starts).
	Rotations []Artifact `json:"rotations,omitempty"`
}

// Bundle is a bundle: its header and its entries, either in memory
// (Decode) or streamed from its file at each pass (Read).
type Bundle struct {
	Header
	Entries []*register.Entry `json:"entries"` // in memory; nil when streamed
	path    string
	// Progress, when set, hears how many bytes of the file each streamed
	// pass (Each) has read, of size, now and then (a terminal's bar).
	Progress func(read, size int64) `json:"-"`
}

// countingReader tells progress how far a pass through the file is.
type countingReader struct {
	r          io.Reader
	read, size int64
	last       int64
	progress   func(read, size int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	if c.read-c.last >= 1<<20 {
		c.last = c.read
		c.progress(c.read, c.size)
	}
	return n, err
}

// Selection says which entries a disclosure level applies to.
type Selection struct {
	All  bool
	Seqs map[int64]bool
}

// Disclosure says, per entry, what a bundle shows:
//
//   - Input entries: every field, the tool input and its salt (the input is
//     checked against the entry's commitment);
//   - Fields entries: every field of the entry (kind, time, session and
//     tool_use ids, cwd, tool, decision, rules, reason, mode, catalog,
//     commitment) but not the input;
//   - every other entry is withheld: its sequence number, hash and previous
//     hash only. Its hash covers its salted input commitment, so none of its
//     fields (cwd, ids, times, rules, reasons) can be guessed or brute-forced
//     from it; disclosing the entry later shows fields that verify against
//     the same hash and seals.
//
// Fields cannot be coarsened instead (a day for a time, a directory's last
// element for a cwd): the entry hash covers them exactly, so a coarsened
// entry would not verify.
type Disclosure struct {
	Input  Selection
	Fields Selection
	// IncludeUnsealed writes the entries after the last seal too; without
	// it the bundle stops at the last seal (entries no seal covers fail
	// verify, and prove nothing).
	IncludeUnsealed bool
}

// ParseSelection reads --disclose and --fields: "all", "none", or "1,5,7-9".
func ParseSelection(s string) (Selection, error) {
	switch s {
	case "all":
		return Selection{All: true}, nil
	case "none", "":
		return Selection{}, nil
	}
	sel := Selection{Seqs: map[int64]bool{}}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.ParseInt(hi, 10, 64)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a || b-a > 10_000_000 {
			return Selection{}, fmt.Errorf("%q: %q is not a sequence number or range (want all, none or e.g. 1,5,7-9)", s, part)
		}
		for q := a; q <= b; q++ {
			sel.Seqs[q] = true
		}
	}
	return sel, nil
}

// Has reports whether seq is selected.
func (s Selection) Has(seq int64) bool { return s.All || s.Seqs[seq] }

// withheldEntry is what a withheld entry shows.
type withheldEntry struct {
	Seq      int64  `json:"seq"`
	PrevHash string `json:"prev_hash"`
	Hash     string `json:"hash"`
}

// Counts says how many entries a bundle shows at each level.
type Counts struct {
	Entries, Input, Fields, Withheld int64
	// LeftOut counts the entries after the last seal that were not written
	// (Disclosure.IncludeUnsealed unset); Sealed is the last seal's size.
	LeftOut, Sealed int64
}

// Write streams a bundle of reg to w: every entry at its disclosure level,
// every sealed register and artifact seal, the operator key. Pending seals
// are left out: they prove nothing yet; so are the entries after the last
// seal unless d.IncludeUnsealed (Counts.LeftOut says how many).
func Write(w io.Writer, reg *register.Register, operatorPEM []byte, d Disclosure, now time.Time) (Counts, error) {
	var n Counts
	recs, err := seal.Records(reg.DB(), seal.SubjectRegister)
	if err != nil {
		return n, err
	}
	arts, err := seal.Records(reg.DB(), seal.SubjectArtifact)
	if err != nil {
		return n, err
	}
	rots, err := seal.Records(reg.DB(), seal.SubjectRotation)
	if err != nil {
		return n, err
	}
	h := Header{Format: Format, RegisterID: reg.ID(), CreatedAt: now.UTC().Truncate(time.Second),
		OperatorKey: string(operatorPEM), Seals: []Seal{}, Artifacts: []Artifact{}}
	for _, r := range rots {
		if r.Status != seal.StatusSealed {
			continue
		}
		if len(h.Rotations) == 0 {
			// The chain starts at the key the first rotation hands over
			// from: a reader pinned to it follows the rotations.
			h.OperatorKey = r.PublicKey
		}
		h.Rotations = append(h.Rotations, artifactOf(r))
	}
	for _, r := range recs {
		if r.Status == seal.StatusSealed {
			n.Sealed = int64(r.Size)
			h.Seals = append(h.Seals, Seal{ID: r.ID, Kind: r.Kind, Size: r.Size, Root: r.Root, Head: r.Head,
				Prev: r.Prev, Checkpoint: r.Checkpoint, Signature: r.Signature, RekorURL: r.RekorURL,
				RekorUUID: r.RekorUUID, RekorEntry: json.RawMessage(r.RekorEntry)})
		}
	}
	for _, r := range arts {
		if r.Status == seal.StatusSealed {
			h.Artifacts = append(h.Artifacts, artifactOf(r))
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	hb, err := json.MarshalIndent(h, "", " ")
	if err != nil {
		return n, err
	}
	// Stream the entries into the same object, last: the register may be large.
	bw.Write(hb[:len(hb)-2])
	bw.WriteString(",\n \"entries\": [")
	err = reg.Each(1, func(e *register.Entry) error {
		if !d.IncludeUnsealed && e.Seq > n.Sealed {
			n.LeftOut++
			return nil
		}
		var b []byte
		var err error
		switch {
		case d.Input.Has(e.Seq):
			n.Input++
			b, err = json.Marshal(e)
		case d.Fields.Has(e.Seq):
			n.Fields++
			c := *e
			c.Input, c.Salt = nil, nil
			b, err = json.Marshal(&c)
		default:
			n.Withheld++
			b, err = json.Marshal(withheldEntry{Seq: e.Seq, PrevHash: e.PrevHash, Hash: e.Hash})
		}
		if err != nil {
			return err
		}
		if n.Entries > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n  ")
		bw.Write(b)
		n.Entries++
		return nil
	})
	if err != nil {
		return n, err
	}
	bw.WriteString("\n ]\n}\n")
	return n, bw.Flush()
}

func artifactOf(r *seal.Record) Artifact {
	return Artifact{ID: r.ID, Kind: r.Kind, Statement: r.Checkpoint, Signature: r.Signature,
		RekorURL: r.RekorURL, RekorUUID: r.RekorUUID, RekorEntry: json.RawMessage(r.RekorEntry)}
}

// Read opens a bundle file: the header is read now, the entries are
// streamed from the file at every pass (Each), in constant memory.
func Read(path string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := &Bundle{path: path}
	if err := decode(bufio.NewReaderSize(f, 1<<16), &b.Header, nil); err != nil {
		return nil, err
	}
	return b, nil
}

// Decode parses a whole bundle into memory, strictly: unknown fields and
// other formats are errors, not silently ignored.
func Decode(r io.Reader) (*Bundle, error) {
	b := &Bundle{Entries: []*register.Entry{}}
	err := decode(r, &b.Header, func(e *register.Entry) error {
		c := *e
		b.Entries = append(b.Entries, &c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// decode reads the header into h and, when fn is not nil, passes every
// entry to fn (the *Entry is reused: fn copies what it keeps). With fn nil
// it stops at the entries when the header is complete (the writer puts the
// entries last), else skips over them one at a time: a bundle whose keys a
// tool reordered still reads, in constant memory.
func decode(r io.Reader, h *Header, fn func(*register.Entry) error) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("not a sentinel bundle: "+format, args...)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return bad("want a JSON object (%v)", err)
	}
	seen := map[string]bool{}
	for {
		t, err := dec.Token()
		if err != nil {
			return bad("%v", err)
		}
		if t == json.Delim('}') {
			if !seen["entries"] {
				return bad("no entries")
			}
			if _, err := dec.Token(); !errors.Is(err, io.EOF) {
				return bad("data after the bundle object")
			}
			return checkFormat(h)
		}
		key, _ := t.(string)
		if seen[key] {
			return bad("field %q twice", key)
		}
		seen[key] = true
		var v any
		switch key {
		case "format":
			v = &h.Format
		case "register_id":
			v = &h.RegisterID
		case "created_at":
			v = &h.CreatedAt
		case "operator_key":
			v = &h.OperatorKey
		case "seals":
			v = &h.Seals
		case "artifacts":
			v = &h.Artifacts
		case "rotations":
			v = &h.Rotations
		case "entries":
			if fn == nil && seen["format"] && seen["register_id"] && seen["operator_key"] && seen["seals"] &&
				(seen["artifacts"] || h.Format == formatV1) {
				return checkFormat(h)
			}
			skip := func(*register.Entry) error { return nil }
			if fn != nil {
				skip = fn
			}
			if err := decodeEntries(dec, skip); err != nil {
				return err
			}
			continue
		default:
			return bad("unknown field %q", key)
		}
		if err := dec.Decode(v); err != nil {
			return bad("%s: %v", key, err)
		}
	}
}

func decodeEntries(dec *json.Decoder, fn func(*register.Entry) error) error {
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return fmt.Errorf("not a sentinel bundle: entries is not an array")
	}
	var e register.Entry
	for i := 1; dec.More(); i++ {
		e = register.Entry{}
		if err := dec.Decode(&e); err != nil {
			return fmt.Errorf("not a sentinel bundle: entry at position %d: %v", i, err)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // ]
		return fmt.Errorf("not a sentinel bundle: %v", err)
	}
	return nil
}

func checkFormat(h *Header) error {
	if h.Format != Format && h.Format != formatV1 {
		return fmt.Errorf("bundle format %q, this sentinel reads %q and %q", h.Format, Format, formatV1)
	}
	return nil
}

// Each passes every entry to fn in order, streaming from the file for a
// bundle opened with Read. The *Entry passed is reused between calls.
func (b *Bundle) Each(fn func(*register.Entry) error) error {
	if b.path == "" {
		for i, e := range b.Entries {
			if e == nil {
				return fmt.Errorf("entry at position %d is null", i+1)
			}
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	}
	f, err := os.Open(b.path)
	if err != nil {
		return err
	}
	defer f.Close()
	var h Header
	var r io.Reader = f
	if b.Progress != nil {
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		r = &countingReader{r: f, size: fi.Size(), progress: b.Progress}
	}
	return decode(bufio.NewReaderSize(r, 1<<16), &h, fn)
}

// Records are the bundle's register seals as seal records.
func (b *Bundle) Records() []*seal.Record {
	out := make([]*seal.Record, len(b.Seals))
	for i, s := range b.Seals {
		out[i] = &seal.Record{ID: s.ID, Kind: s.Kind, Subject: seal.SubjectRegister, Size: s.Size,
			Root: s.Root, Head: s.Head, Prev: s.Prev, Checkpoint: s.Checkpoint, Signature: s.Signature,
			PublicKey: b.OperatorKey, Status: seal.StatusSealed, RekorURL: s.RekorURL,
			RekorUUID: s.RekorUUID, RekorEntry: string(s.RekorEntry)}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ArtifactRecords are the bundle's artifact seals as seal records.
func (b *Bundle) ArtifactRecords() []*seal.Record {
	return b.records(b.Artifacts, seal.SubjectArtifact)
}

// RotationRecords are the bundle's key rotations as seal records.
func (b *Bundle) RotationRecords() []*seal.Record {
	return b.records(b.Rotations, seal.SubjectRotation)
}

func (b *Bundle) records(as []Artifact, subject string) []*seal.Record {
	out := make([]*seal.Record, len(as))
	for i, a := range as {
		out[i] = &seal.Record{ID: a.ID, Kind: a.Kind, Subject: subject, Checkpoint: a.Statement,
			Signature: a.Signature, PublicKey: b.OperatorKey, Status: seal.StatusSealed, RekorURL: a.RekorURL,
			RekorUUID: a.RekorUUID, RekorEntry: string(a.RekorEntry)}
	}
	return out
}

// Verify checks the bundle on its own: the chain over all entries (the
// commitment of each disclosed one; the link of each withheld one), every
// register seal and every artifact seal against the pinned Rekor key and
// the operator key. o.Operator, when set, pins the operator key: the
// bundle's own key must be that key. Left nil, the bundle's key is used and
// its fingerprint reported, to be compared out of band. A bundle whose file
// cannot be read again is an error, not a report.
func (b *Bundle) Verify(ctx context.Context, path string, o seal.VerifyOptions) *seal.Report {
	embedded, err := seal.ParsePublicKey([]byte(b.OperatorKey))
	fail := func(msg string) *seal.Report {
		rep := &seal.Report{Source: "bundle", Path: path, RegisterID: b.RegisterID, Failure: msg,
			Seals: []seal.SealResult{}, Findings: []seal.Finding{}, Artifacts: []seal.ArtifactResult{}}
		if o.Rekor != nil {
			rep.RekorLogID = o.Rekor.LogID
		}
		if o.Operator != nil {
			rep.OperatorKey, rep.OperatorKeyFrom = seal.Fingerprint(o.Operator), o.OperatorFrom
		}
		rep.OperatorPinned = o.Pinned
		rep.Settle()
		return rep
	}
	o.Rotations = b.RotationRecords()
	if err == nil {
		o.ChainStart = embedded
	}
	switch {
	case err != nil && (len(b.Seals) > 0 || len(b.Artifacts) > 0 || len(b.Rotations) > 0):
		return fail(fmt.Sprintf("the bundle's operator key: %v", err))
	case len(b.Rotations) > 0 && o.Operator == nil && o.Fingerprint == "":
		o.Operator, o.OperatorFrom = embedded, "bundle"
	case len(b.Rotations) > 0:
		// The pin must be one of the keys the rotations lead to from the
		// bundle's first key: VerifyStream checks it.
		if o.Operator == nil {
			o.Operator = embedded
			if seal.Fingerprint(embedded) != o.Fingerprint {
				o.Operator = nil
			}
		}
	case err == nil && o.Operator != nil && !o.Operator.Equal(embedded):
		return fail(fmt.Sprintf("the bundle's operator key %s is not the pinned operator key %s",
			seal.Fingerprint(embedded), seal.Fingerprint(o.Operator)))
	case o.Fingerprint != "" && err != nil:
		return fail(fmt.Sprintf("the bundle's operator key: %v (the pinned fingerprint is %s)", err, o.Fingerprint))
	case o.Fingerprint != "" && seal.Fingerprint(embedded) != o.Fingerprint:
		return fail(fmt.Sprintf("the bundle's operator key %s is not the pinned operator fingerprint %s: a different operator",
			seal.Fingerprint(embedded), o.Fingerprint))
	case o.Fingerprint != "" && o.Operator == nil:
		o.Operator = embedded
	case err == nil && o.Operator == nil:
		o.Operator, o.OperatorFrom = embedded, "bundle"
	}
	var inputNoSalt, disclosed, withheld int64
	next, stop := iter.Pull2(func(yield func(*register.Entry, error) bool) {
		err := b.Each(func(e *register.Entry) error {
			if !yield(e, nil) {
				return errStopped
			}
			return nil
		})
		if err != nil && err != errStopped {
			yield(nil, err)
		}
	})
	defer stop()
	rep := seal.VerifyStream(ctx, b.RegisterID, func() (*register.Entry, error) {
		e, err, ok := next()
		if !ok {
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		switch {
		case e.Salt != nil:
			disclosed++
		case seal.Withheld(e):
			withheld++
		case e.Input != nil && inputNoSalt == 0:
			inputNoSalt = e.Seq
		}
		return e, nil
	}, b.Records(), o)
	rep.Source, rep.Path = "bundle", path
	rep.Disclosed, rep.Withheld = &disclosed, &withheld
	if inputNoSalt != 0 && rep.OK {
		rep.OK = false
		rep.Failure = fmt.Sprintf("entry %d: carries an input without its salt, so the input cannot be checked against the commitment", inputNoSalt)
	}
	var first string
	rep.Artifacts, first = seal.CheckArtifactsOf(ctx, b.RegisterID, b.ArtifactRecords(), o)
	if first != "" && rep.OK {
		rep.OK, rep.Failure = false, first
	}
	rep.Settle()
	return rep
}

var errStopped = errors.New("stopped")
