package seal

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"database/sql"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// RotationHeader is the first line of a key rotation statement (its own
// domain: a signature over it is never a checkpoint's or an artifact's).
const RotationHeader = "sentinel key rotation v1"

// SubjectRotation is the seals table's subject of a key rotation.
const SubjectRotation = "rotation"

// Rotation is a key change, signed by the old key and sealed in the log:
//
//	sentinel key rotation v1
//	register <register id>
//	size <entries the old key sealed: its last register seal's size, or 0>
//	prev <Rekor UUID of that seal, or ->
//	old <fingerprint of the old key>
//	new <fingerprint of the new key>
//	new-key <base64 PKIX DER of the new key>
//	time <RFC 3339 UTC>
//
// Seals covering more than size entries are the new key's. The new key is
// carried whole, so the statement alone says which key takes over.
type Rotation struct {
	RegisterID string
	Size       uint64
	Prev       string
	Old, New   string
	NewKey     *ecdsa.PublicKey
	Time       time.Time
}

// Marshal is the exact signed text.
func (r *Rotation) Marshal() ([]byte, error) {
	der, err := PublicKeyDER(r.NewKey)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, "%s\nregister %s\nsize %d\nprev %s\nold %s\nnew %s\nnew-key %s\ntime %s\n",
		RotationHeader, r.RegisterID, r.Size, r.Prev, r.Old, Fingerprint(r.NewKey),
		base64.StdEncoding.EncodeToString(der), r.Time.UTC().Format(time.RFC3339)), nil
}

// ParseRotation reads a rotation statement strictly (Marshal must give the
// same bytes back), and checks that the new key has the fingerprint named.
func ParseRotation(text string) (*Rotation, error) {
	lines := strings.Split(text, "\n")
	if len(lines) != 9 || lines[8] != "" || lines[0] != RotationHeader {
		return nil, fmt.Errorf("not a key rotation statement (want %q and 7 more lines)", RotationHeader)
	}
	var v [8]string
	for i, key := range []string{"", "register", "size", "prev", "old", "new", "new-key", "time"} {
		if i == 0 {
			continue
		}
		s, ok := strings.CutPrefix(lines[i], key+" ")
		if !ok || s == "" {
			return nil, fmt.Errorf("key rotation: line %d: want %q", i+1, key+" ...")
		}
		v[i] = s
	}
	r := &Rotation{RegisterID: v[1], Prev: v[3], Old: v[4], New: v[5]}
	var err error
	if r.Size, err = strconv.ParseUint(v[2], 10, 64); err != nil {
		return nil, fmt.Errorf("key rotation: size: %v", err)
	}
	der, err := base64.StdEncoding.DecodeString(v[6])
	if err != nil {
		return nil, fmt.Errorf("key rotation: new-key: %v", err)
	}
	if r.NewKey, err = ParsePublicKey(pemOf(der)); err != nil {
		return nil, fmt.Errorf("key rotation: new-key: %v", err)
	}
	if r.Time, err = time.Parse(time.RFC3339, v[7]); err != nil {
		return nil, fmt.Errorf("key rotation: time: %v", err)
	}
	if Fingerprint(r.NewKey) != r.New {
		return nil, fmt.Errorf("key rotation: the new key is %s, not the %s it names", Fingerprint(r.NewKey), r.New)
	}
	canon, err := r.Marshal()
	if err != nil || !bytes.Equal(canon, []byte(text)) {
		return nil, fmt.Errorf("key rotation: not in canonical form")
	}
	return r, nil
}

func pemOf(der []byte) []byte {
	return fmt.Appendf(nil, "-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n", base64.StdEncoding.EncodeToString(der))
}

// RotationResult is the verdict on one rotation statement.
type RotationResult struct {
	ID             int64  `json:"id"`
	Old            string `json:"old_key"`
	New            string `json:"new_key"`
	Size           uint64 `json:"size"` // seals covering more entries are the new key's
	RekorUUID      string `json:"rekor_uuid,omitempty"`
	LogIndex       *int64 `json:"log_index,omitempty"`
	IntegratedTime *int64 `json:"integrated_time,omitempty"`
	Statement      string `json:"statement"`
	Verified       bool   `json:"verified"`
	Error          string `json:"error,omitempty"`
}

// keyStep is one key of a register's chain: it seals the register seals
// covering more than from entries (up to the next step's from), and log
// entries integrated from since (unix seconds; 0: from the start) to the
// next step's since.
type keyStep struct {
	key   *ecdsa.PublicKey
	from  uint64
	since int64
	prev  string // the Rekor UUID of the seal at from, as the rotation names it
}

// KeyChain is the operator keys of one register in order: the first key,
// then each key a verified rotation handed over to.
type KeyChain struct {
	steps   []keyStep
	Results []RotationResult
	// Failure is the first rotation that does not verify ("" when all
	// do); the chain stops before it.
	Failure string
}

// FollowRotations builds the key chain of registerID from its first key:
// each rotation must be for this register, name the current key as old,
// be signed by it and sealed in the log (VerifyRecord against the pinned
// Rekor key), and not go back in the register. A rotation that is not in
// the log, or is signed by any other key, stops the chain: the keys after
// it are a different operator.
func FollowRotations(ctx context.Context, registerID string, first *ecdsa.PublicKey, rots []*Record, rk *RekorKey) *KeyChain {
	kc := &KeyChain{steps: []keyStep{{key: first}}, Results: []RotationResult{}}
	for _, r := range rots {
		res := RotationResult{ID: r.ID, RekorUUID: r.RekorUUID, Statement: r.Checkpoint}
		if e, err := ParseLogEntry([]byte(r.RekorEntry)); err == nil {
			res.LogIndex, res.IntegratedTime = e.LogIndex, e.IntegratedTime
		}
		cur := kc.steps[len(kc.steps)-1]
		rot, err := ParseRotation(r.Checkpoint)
		switch {
		case kc.Failure != "":
			res.Error = "not checked: an earlier rotation does not verify"
		case err != nil:
			res.Error = err.Error()
		case first == nil:
			res.Error = "not checked: no operator public key"
		case rot.RegisterID != registerID:
			res.Error = fmt.Sprintf("the rotation is for register %s, not %s", rot.RegisterID, registerID)
		case rot.Old != Fingerprint(cur.key):
			res.Error = fmt.Sprintf("the rotation hands over from key %s, but the register's key at that point is %s", rot.Old, Fingerprint(cur.key))
		case rot.Size < cur.from:
			res.Error = fmt.Sprintf("the rotation is at entry %d, before the previous one's %d", rot.Size, cur.from)
		case r.Status != StatusSealed:
			res.Error = "the rotation is not in the log (pending): a key change proves nothing until it is sealed"
		case res.IntegratedTime == nil:
			res.Error = "the rotation's log entry has no integrated time"
		default:
			if err := VerifyRecord(ctx, r, cur.key, rk); err != nil {
				res.Error = fmt.Sprintf("not signed by the old key %s in the pinned log: %v", Fingerprint(cur.key), err)
			}
		}
		if rot != nil {
			res.Old, res.New, res.Size = rot.Old, rot.New, rot.Size
		}
		if res.Error != "" {
			if kc.Failure == "" {
				kc.Failure = fmt.Sprintf("key rotation %d: %s", r.ID, res.Error)
			}
		} else {
			res.Verified = true
			kc.steps = append(kc.steps, keyStep{key: rot.NewKey, from: rot.Size, since: *res.IntegratedTime, prev: rot.Prev})
		}
		kc.Results = append(kc.Results, res)
	}
	return kc
}

// Rotated reports whether the chain holds more than one key.
func (kc *KeyChain) Rotated() bool { return kc != nil && len(kc.steps) > 1 }

// First is the key the chain starts from.
func (kc *KeyChain) First() *ecdsa.PublicKey { return kc.steps[0].key }

// Current is the last key of the chain.
func (kc *KeyChain) Current() *ecdsa.PublicKey { return kc.steps[len(kc.steps)-1].key }

// Keys are the chain's keys in order, the first one first.
func (kc *KeyChain) Keys() []*ecdsa.PublicKey {
	out := make([]*ecdsa.PublicKey, 0, len(kc.steps))
	for _, s := range kc.steps {
		if s.key != nil {
			out = append(out, s.key)
		}
	}
	return out
}

// Has reports whether pub is one of the chain's keys.
func (kc *KeyChain) Has(pub *ecdsa.PublicKey) bool {
	for _, s := range kc.steps {
		if s.key != nil && s.key.Equal(pub) {
			return true
		}
	}
	return false
}

// HasFingerprint reports whether a key of the chain has fingerprint fp.
func (kc *KeyChain) HasFingerprint(fp string) bool { return kc.byFingerprint(fp) != nil }

func (kc *KeyChain) byFingerprint(fp string) *ecdsa.PublicKey {
	for _, s := range kc.steps {
		if s.key != nil && Fingerprint(s.key) == fp {
			return s.key
		}
	}
	return nil
}

// Describe lists the keys in order, for messages.
func (kc *KeyChain) Describe() string {
	var b strings.Builder
	for i, s := range kc.steps {
		if i > 0 {
			fmt.Fprintf(&b, ", then from entry %d ", s.from+1)
		}
		b.WriteString(Fingerprint(s.key))
	}
	return b.String()
}

// forSeal is the step whose key must sign a register seal covering size
// entries.
func (kc *KeyChain) forSeal(size uint64) (int, keyStep) {
	i := 0
	for j, s := range kc.steps {
		if j > 0 && size > s.from {
			i = j
		}
	}
	return i, kc.steps[i]
}

// keysAt are the keys that may sign a log entry integrated at t: the key
// current then (both keys at a rotation's own second).
func (kc *KeyChain) keysAt(t int64) []*ecdsa.PublicKey {
	var out []*ecdsa.PublicKey
	for j, s := range kc.steps {
		end := int64(1<<62 - 1)
		if j+1 < len(kc.steps) {
			end = kc.steps[j+1].since
		}
		if t >= s.since && t <= end {
			out = append(out, s.key)
		}
	}
	return out
}

// checkSeal is the key chain's part of a register seal's verdict: the key
// that must sign it, and an error when the seal falls outside its key's
// time (a retired key sealing after its rotation, a new key before it).
func (kc *KeyChain) checkSeal(r *Record, integrated *int64) (*ecdsa.PublicKey, string) {
	i, s := kc.forSeal(r.Size)
	if integrated == nil || !kc.Rotated() {
		return s.key, ""
	}
	t := *integrated
	if t < s.since {
		return s.key, fmt.Sprintf("sealed by the new key %s at %s, before the rotation to it was in the log (%s)",
			Fingerprint(s.key), unixUTC(t), unixUTC(s.since))
	}
	if i+1 < len(kc.steps) && t > kc.steps[i+1].since {
		return s.key, fmt.Sprintf("sealed by key %s at %s, after its rotation to %s was in the log (%s)",
			Fingerprint(s.key), unixUTC(t), Fingerprint(kc.steps[i+1].key), unixUTC(kc.steps[i+1].since))
	}
	return s.key, ""
}

func unixUTC(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }

// checkHandovers: every rotation after the first key names the seal at its
// position, and that seal is the register's (its Rekor UUID); "" when so.
func (kc *KeyChain) checkHandovers(recs []*Record) string {
	for j, s := range kc.steps {
		if j == 0 {
			continue
		}
		want := NoPrev
		for _, r := range recs {
			if r.Size == s.from && r.Status == StatusSealed {
				want = r.RekorUUID
			}
		}
		if s.from == 0 && s.prev == NoPrev {
			continue
		}
		if want != s.prev {
			return fmt.Sprintf("key rotation to %s names seal %s at entry %d, but the register's seal there is %s",
				Fingerprint(s.key), s.prev, s.from, want)
		}
	}
	return ""
}

// RotationStatement signs nothing: it is the text a rotation from old to
// newKey at the register's last seal (size, prev) would sign.
func RotationStatement(registerID string, size uint64, prev string, old, newKey *ecdsa.PublicKey, t time.Time) ([]byte, error) {
	return (&Rotation{RegisterID: registerID, Size: size, Prev: prev, Old: Fingerprint(old), NewKey: newKey,
		Time: t.UTC().Truncate(time.Second)}).Marshal()
}

// SealRotation signs a rotation from opts.Key to newKey at the register's
// last seal and seals it in the log, keeping the record (subject rotation)
// in db before and after the upload. It refuses while a register seal is
// pending (the rotation must name the old key's last seal) and when
// opts.Key is not the register's current key. A pending rotation of the
// same new key is uploaded again rather than signed anew. On an upload
// failure the record stays pending and the error is an *UploadError.
func SealRotation(ctx context.Context, db *sql.DB, registerID string, opts Options, newKey *ecdsa.PublicKey) (*Record, error) {
	opts.defaults()
	if opts.Key == nil {
		return nil, fmt.Errorf("no signing key")
	}
	if err := EnsureSchema(db); err != nil {
		return nil, err
	}
	cur, pendingRot, err := currentKey(db)
	if err != nil {
		return nil, err
	}
	if pendingRot != nil {
		rot, err := ParseRotation(pendingRot.Checkpoint)
		if err != nil || !rot.NewKey.Equal(newKey) {
			return nil, fmt.Errorf("rotation %d (to another key) is pending: it must be uploaded or removed first", pendingRot.ID)
		}
		return pendingRot, uploadRecord(ctx, db, pendingRot, opts)
	}
	if cur != nil && !cur.Equal(&opts.Key.PublicKey) {
		return nil, fmt.Errorf("the signing key %s is not the register's current key %s: only the current key can hand over", Fingerprint(&opts.Key.PublicKey), Fingerprint(cur))
	}
	if newKey.Equal(&opts.Key.PublicKey) {
		return nil, fmt.Errorf("the new key is the current key")
	}
	last, err := lastRecord(db, SubjectRegister)
	if err != nil {
		return nil, err
	}
	size, prev := uint64(0), NoPrev
	if last != nil {
		if last.Status != StatusSealed {
			return nil, fmt.Errorf("seal %d is pending: upload it first (sentinel seal), so that the rotation names the old key's last seal", last.ID)
		}
		size, prev = last.Size, last.RekorUUID
	}
	text, err := RotationStatement(registerID, size, prev, &opts.Key.PublicKey, newKey, opts.Now())
	if err != nil {
		return nil, err
	}
	rec, err := signedRecord(opts, SubjectRotation, text)
	if err != nil {
		return nil, err
	}
	rec.Size, rec.Prev = size, prev
	if err := insertRecord(db, rec); err != nil {
		return nil, err
	}
	return rec, uploadRecord(ctx, db, rec, opts)
}

// currentKey is the key the register's next seal must be signed with: the
// new key of its last sealed rotation, else the key of its last register
// seal (nil: neither). A pending rotation is returned apart.
func currentKey(db *sql.DB) (*ecdsa.PublicKey, *Record, error) {
	rots, err := Records(db, SubjectRotation)
	if err != nil {
		return nil, nil, err
	}
	var cur *ecdsa.PublicKey
	if last, err := lastRecord(db, SubjectRegister); err != nil {
		return nil, nil, err
	} else if last != nil {
		if cur, err = ParsePublicKey([]byte(last.PublicKey)); err != nil {
			return nil, nil, fmt.Errorf("seal %d: its public key: %v", last.ID, err)
		}
	}
	for _, r := range rots {
		if r.Status != StatusSealed {
			return cur, r, nil
		}
		rot, err := ParseRotation(r.Checkpoint)
		if err != nil {
			return nil, nil, fmt.Errorf("key rotation %d: %v", r.ID, err)
		}
		cur = rot.NewKey
	}
	return cur, nil, nil
}

// ChainStart is the first operator key of a register: the signer of its
// first rotation, else of its first register seal (nil: neither).
func ChainStart(db *sql.DB) (*ecdsa.PublicKey, error) {
	for _, subject := range []string{SubjectRotation, SubjectRegister} {
		recs, err := Records(db, subject)
		if err != nil {
			return nil, err
		}
		if len(recs) > 0 {
			return ParsePublicKey([]byte(recs[0].PublicKey))
		}
	}
	return nil, nil
}
