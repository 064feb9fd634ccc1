// Package bundle writes and reads export bundles: a self-contained,
// versioned JSON file with a register's entries (each disclosed in full or
// as a commitment only), its seals with Rekor's answers, and the operator's
// public key. `sentinel verify --bundle` needs nothing else.
package bundle

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// Format is the version tag of the bundle format.
const Format = "sentinel-bundle/v1"

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

// Bundle is a parsed bundle.
type Bundle struct {
	Format      string            `json:"format"`
	RegisterID  string            `json:"register_id"`
	CreatedAt   time.Time         `json:"created_at"`
	OperatorKey string            `json:"operator_key"` // PEM
	Seals       []Seal            `json:"seals"`
	Entries     []*register.Entry `json:"entries"`
}

// Selection says which entries are disclosed.
type Selection struct {
	All  bool
	Seqs map[int64]bool
}

// ParseSelection reads --disclose: "all", "none", or "1,5,7-9".
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
			return Selection{}, fmt.Errorf("--disclose %q: %q is not a sequence number or range (want all, none or e.g. 1,5,7-9)", s, part)
		}
		for q := a; q <= b; q++ {
			sel.Seqs[q] = true
		}
	}
	return sel, nil
}

func (s Selection) has(seq int64) bool { return s.All || s.Seqs[seq] }

// Write streams a bundle of reg to w: every entry (disclosed ones with
// input and salt), every sealed seal, the operator key. Pending seals are
// left out: they prove nothing yet. It returns the number of entries and of
// disclosed entries.
func Write(w io.Writer, reg *register.Register, operatorPEM []byte, sel Selection, now time.Time) (entries, disclosed int64, err error) {
	recs, err := seal.Records(reg.DB(), seal.SubjectRegister)
	if err != nil {
		return 0, 0, err
	}
	seals := []Seal{}
	for _, r := range recs {
		if r.Status != seal.StatusSealed {
			continue
		}
		seals = append(seals, Seal{ID: r.ID, Kind: r.Kind, Size: r.Size, Root: r.Root, Head: r.Head,
			Prev: r.Prev, Checkpoint: r.Checkpoint, Signature: r.Signature, RekorURL: r.RekorURL,
			RekorUUID: r.RekorUUID, RekorEntry: json.RawMessage(r.RekorEntry)})
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	head := struct {
		Format      string    `json:"format"`
		RegisterID  string    `json:"register_id"`
		CreatedAt   time.Time `json:"created_at"`
		OperatorKey string    `json:"operator_key"`
		Seals       []Seal    `json:"seals"`
	}{Format, reg.ID(), now.UTC().Truncate(time.Second), string(operatorPEM), seals}
	hb, err := json.MarshalIndent(head, "", " ")
	if err != nil {
		return 0, 0, err
	}
	// Stream the entries into the same object: the register may be large.
	bw.Write(hb[:len(hb)-2])
	bw.WriteString(",\n \"entries\": [")
	err = reg.Each(1, func(e *register.Entry) error {
		c := *e
		if sel.has(c.Seq) {
			disclosed++
		} else {
			c.Input, c.Salt = nil, nil
		}
		b, err := json.Marshal(&c)
		if err != nil {
			return err
		}
		if entries > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n  ")
		bw.Write(b)
		entries++
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	bw.WriteString("\n ]\n}\n")
	return entries, disclosed, bw.Flush()
}

// Read parses a bundle file.
func Read(path string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Decode(bufio.NewReaderSize(f, 1<<16))
}

// Decode parses a bundle, strictly: unknown fields and other formats are
// errors, not silently ignored.
func Decode(r io.Reader) (*Bundle, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var b Bundle
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("not a sentinel bundle: %w", err)
	}
	if b.Format != Format {
		return nil, fmt.Errorf("bundle format %q, this sentinel reads %q", b.Format, Format)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not a sentinel bundle: data after the bundle object")
	}
	return &b, nil
}

// Records are the bundle's seals as seal records.
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

// Disclosed counts the entries that carry their input.
func (b *Bundle) Disclosed() int64 {
	var n int64
	for _, e := range b.Entries {
		if e.Salt != nil {
			n++
		}
	}
	return n
}

// Verify checks the bundle on its own: the chain over all entries (the
// commitment of each disclosed one), and every seal against the pinned
// Rekor key and the operator key. o.Operator, when set, pins the operator
// key: the bundle's own key must be that key. Left nil, the bundle's key
// is used and its fingerprint reported, to be compared out of band.
func (b *Bundle) Verify(ctx context.Context, path string, o seal.VerifyOptions) *seal.Report {
	embedded, err := seal.ParsePublicKey([]byte(b.OperatorKey))
	fail := func(msg string) *seal.Report {
		return &seal.Report{Source: "bundle", Path: path, RegisterID: b.RegisterID, Failure: msg,
			Seals: []seal.SealResult{}, Findings: []seal.Finding{}}
	}
	switch {
	case err != nil && len(b.Seals) > 0:
		return fail(fmt.Sprintf("the bundle's operator key: %v", err))
	case err == nil && o.Operator != nil && !o.Operator.Equal(embedded):
		return fail(fmt.Sprintf("the bundle's operator key %s is not the pinned operator key %s",
			seal.Fingerprint(embedded), seal.Fingerprint(o.Operator)))
	case err == nil:
		o.Operator = embedded
	}
	i := 0
	var inputNoSalt int64
	rep := seal.VerifyStream(ctx, b.RegisterID, func() (*register.Entry, error) {
		if i == len(b.Entries) {
			return nil, io.EOF
		}
		e := b.Entries[i]
		i++
		if e == nil {
			return nil, errors.New("null entry")
		}
		if e.Salt == nil && e.Input != nil && inputNoSalt == 0 {
			inputNoSalt = e.Seq
		}
		return e, nil
	}, b.Records(), o)
	rep.Source, rep.Path = "bundle", path
	d := b.Disclosed()
	rep.Disclosed = &d
	if inputNoSalt != 0 && rep.OK {
		rep.OK = false
		rep.Failure = fmt.Sprintf("entry %d: carries an input without its salt, so the input cannot be checked against the commitment", inputNoSalt)
	}
	return rep
}
