package seal

import (
	"context"
	"crypto/ecdsa"
	"database/sql"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/sentinel-guard/sentinel/register"
)

// EntrySource is the register as sealing and verification see it: its id
// and the hashes of its entries in order.
type EntrySource interface {
	ID() string
	// EachHash calls fn for every entry with seq > after, in seq order, with
	// the entry's hex hash.
	EachHash(after uint64, fn func(seq uint64, hash string) error) error
}

// Options configure a seal.
type Options struct {
	RekorURL string            // default DefaultRekorURL
	Key      *ecdsa.PrivateKey // the operator's signing key
	Timeout  time.Duration     // per Rekor round trip; default DefaultTimeout
	Now      func() time.Time  // default time.Now
}

func (o *Options) defaults() {
	if o.RekorURL == "" {
		o.RekorURL = DefaultRekorURL
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Result says what a seal run did.
type Result struct {
	Uploaded []*Record // seals that were pending and are now sealed
	New      *Record   // the seal made by this run (nil when up to date)
	Pending  *Record   // a seal left pending (Rekor refused or unreachable)
	Size     uint64    // entries in the register
}

// SealRegister seals the entries appended since the last seal. A seal left
// pending by an earlier run is uploaded first; while it cannot be, no new
// seal is made (each checkpoint names its predecessor's Rekor UUID). Only
// entries after the last seal are read: the tree state is kept with each
// seal. On an upload failure the result holds the pending seal and the error
// is an *UploadError.
func SealRegister(ctx context.Context, db *sql.DB, src EntrySource, opts Options) (*Result, error) {
	opts.defaults()
	if opts.Key == nil {
		return nil, fmt.Errorf("no signing key")
	}
	pubPEM, err := PublicKeyPEM(&opts.Key.PublicKey)
	if err != nil {
		return nil, err
	}
	if err := EnsureSchema(db); err != nil {
		return nil, err
	}
	res := &Result{}
	last, err := lastRecord(db, SubjectRegister)
	if err != nil {
		return nil, fmt.Errorf("reading the last seal: %w", err)
	}
	cur, pendingRot, err := currentKey(db)
	switch {
	case err != nil:
		return nil, err
	case pendingRot != nil:
		return nil, fmt.Errorf("key rotation %d is signed but not yet in the log: run sentinel keygen --rotate again to upload it before sealing", pendingRot.ID)
	case cur != nil && !cur.Equal(&opts.Key.PublicKey):
		return nil, fmt.Errorf("the signing key (%s) is not the register's key (%s): a register is sealed by one key at a time, and a new key takes over only by a rotation the old key signs (sentinel keygen --rotate)", Fingerprint(&opts.Key.PublicKey), Fingerprint(cur))
	}
	if last != nil && last.Status == StatusPending {
		if err := uploadRecord(ctx, db, last, opts); err != nil {
			res.Pending = last
			return res, err
		}
		res.Uploaded = append(res.Uploaded, last)
	}

	tree := NewTree()
	prev := NoPrev
	if last != nil {
		if tree, err = UnmarshalTreeState(last.TreeState); err != nil {
			return nil, fmt.Errorf("seal %d: %w", last.ID, err)
		}
		prev = last.RekorUUID
	}
	var head string
	err = src.EachHash(tree.Size(), func(seq uint64, hash string) error {
		if seq != tree.Size()+1 {
			return fmt.Errorf("entry %d follows entry %d: the register is not consecutive", seq, tree.Size())
		}
		if err := tree.AppendEntryHashHex(hash); err != nil {
			return fmt.Errorf("entry %d: %w", seq, err)
		}
		head = hash
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Size = tree.Size()
	if head == "" { // nothing new since the last seal
		return res, nil
	}

	cp := &Checkpoint{RegisterID: src.ID(), Size: tree.Size(), Root: tree.Root(), Head: head,
		Prev: prev, Time: opts.Now().UTC().Truncate(time.Second)}
	text := cp.Marshal()
	sig, err := Sign(opts.Key, text)
	if err != nil {
		return nil, err
	}
	rec := &Record{Kind: KindRekorV1, Subject: SubjectRegister, Size: cp.Size,
		Root: hex.EncodeToString(cp.Root), Head: head, Prev: prev, Checkpoint: string(text),
		Signature: sig, PublicKey: string(pubPEM), TreeState: tree.MarshalState(),
		Status: StatusPending, RekorURL: opts.RekorURL, CreatedAt: cp.Time}
	// Stored before the upload: if the process dies now, the next run
	// uploads this very checkpoint.
	if err := insertRecord(db, rec); err != nil {
		return nil, err
	}
	res.New = rec
	if err := uploadRecord(ctx, db, rec, opts); err != nil {
		res.Pending = rec
		return res, err
	}
	return res, nil
}

func uploadRecord(ctx context.Context, db *sql.DB, r *Record, opts Options) error {
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	if err := upload(ctx, opts.RekorURL, r); err != nil {
		return err
	}
	r.Status, r.SealedAt = StatusSealed, opts.Now().UTC()
	if db == nil {
		return nil
	}
	return markSealed(db, r)
}

// SealArtifact seals an artifact by its sha256 (a census stops.json, a
// protocol file): it signs an ArtifactStatement with opts.Key and uploads
// it to Rekor as a hashedrekord. With db non-nil the record is kept in the
// seals table (subject "artifact") before and after the upload. On failure
// the returned record is pending and the error an *UploadError. Check a
// record later with VerifyArtifact.
func SealArtifact(ctx context.Context, db *sql.DB, opts Options, kind, sha256hex string) (*Record, error) {
	opts.defaults()
	if opts.Key == nil {
		return nil, fmt.Errorf("no signing key")
	}
	now := opts.Now().UTC().Truncate(time.Second)
	text, err := ArtifactStatement(kind, sha256hex, now)
	if err != nil {
		return nil, err
	}
	rec, err := signedRecord(opts, SubjectArtifact, text)
	if err != nil {
		return nil, err
	}
	if db != nil {
		if err := EnsureSchema(db); err != nil {
			return nil, err
		}
		if err := insertRecord(db, rec); err != nil {
			return nil, err
		}
	}
	if err := uploadRecord(ctx, db, rec, opts); err != nil {
		return rec, err
	}
	return rec, nil
}

// signedRecord is a pending record of text signed by opts.Key, to be
// uploaded.
func signedRecord(opts Options, subject string, text []byte) (*Record, error) {
	sig, err := Sign(opts.Key, text)
	if err != nil {
		return nil, err
	}
	pubPEM, err := PublicKeyPEM(&opts.Key.PublicKey)
	if err != nil {
		return nil, err
	}
	return &Record{Kind: KindRekorV1, Subject: subject, Checkpoint: string(text), Signature: sig,
		PublicKey: string(pubPEM), Status: StatusPending, RekorURL: opts.RekorURL,
		CreatedAt: opts.Now().UTC().Truncate(time.Second)}, nil
}

// registerSource adapts a register to EntrySource.
type registerSource struct{ reg *register.Register }

// RegisterSource is the EntrySource of a local register.
func RegisterSource(reg *register.Register) EntrySource { return registerSource{reg} }

func (s registerSource) ID() string { return s.reg.ID() }

func (s registerSource) EachHash(after uint64, fn func(uint64, string) error) error {
	return s.reg.Each(int64(after)+1, func(e *register.Entry) error { return fn(uint64(e.Seq), e.Hash) })
}
