package seal

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

// hashList is an EntrySource over random entry hashes.
type hashList struct {
	id     string
	hashes []string
}

func (h *hashList) ID() string { return h.id }
func (h *hashList) EachHash(after uint64, fn func(uint64, string) error) error {
	for i := after; i < uint64(len(h.hashes)); i++ {
		if err := fn(i+1, h.hashes[i]); err != nil {
			return err
		}
	}
	return nil
}
func (h *hashList) add(n int) {
	for range n {
		var b [32]byte
		rand.Read(b[:])
		h.hashes = append(h.hashes, hex.EncodeToString(b[:]))
	}
}

type rotEnv struct {
	t    *testing.T
	log  *rekortest.Log
	db   *sql.DB
	reg  *hashList
	rkey *RekorKey
}

func newRotEnv(t *testing.T) *rotEnv {
	log := rekortest.New()
	t.Cleanup(log.Close)
	rk, err := ParseRekorKey(log.PublicKeyPEM())
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &rotEnv{t: t, log: log, db: db, reg: &hashList{id: "reg-rot"}, rkey: rk}
}

func genKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func (e *rotEnv) opts(k *ecdsa.PrivateKey) Options {
	return Options{RekorURL: e.log.URL, Key: k, Timeout: 5 * time.Second}
}

func (e *rotEnv) seal(k *ecdsa.PrivateKey) error {
	_, err := SealRegister(context.Background(), e.db, e.reg, e.opts(k))
	return err
}

func (e *rotEnv) recs(subject string) []*Record {
	r, err := Records(e.db, subject)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// verify runs the seal checker over the register with the key chain from
// first: the first failure ("" when everything holds) and the entries the
// verified seals cover.
func (e *rotEnv) verify(first *ecdsa.PublicKey, rots []*Record, regs []*Record) (string, uint64) {
	kc := FollowRotations(context.Background(), e.reg.id, first, rots, e.rkey)
	if kc.Failure != "" {
		return kc.Failure, 0
	}
	if p := kc.checkHandovers(regs); p != "" {
		return p, 0
	}
	c := NewSealCheckerChain(context.Background(), e.reg.id, regs, kc, e.rkey)
	for i, h := range e.reg.hashes {
		if err := c.Add(uint64(i+1), h); err != nil {
			e.t.Fatal(err)
		}
	}
	c.Finish()
	return c.FirstError(), c.SealedThrough()
}

// uploadForged signs text with k and puts it in the log as a rotation
// record: what an attacker who holds k (but not the old key) can do.
func (e *rotEnv) uploadForged(text []byte, k *ecdsa.PrivateKey) *Record {
	sig, err := Sign(k, text)
	if err != nil {
		e.t.Fatal(err)
	}
	pub, _ := PublicKeyPEM(&k.PublicKey)
	r := &Record{Kind: KindRekorV1, Subject: SubjectRotation, Checkpoint: string(text), Signature: sig,
		PublicKey: string(pub), Status: StatusPending}
	if err := upload(context.Background(), e.log.URL, r); err != nil {
		e.t.Fatal(err)
	}
	r.Status = StatusSealed
	return r
}

// TestRotationFollowed: the old key seals entries 1..2, hands over to a new
// key in a rotation sealed in the log, the new key seals 1..3; pinned to
// either key the whole register verifies, and the chain is reported.
func TestRotationFollowed(t *testing.T) {
	e := newRotEnv(t)
	oldK, newK := genKey(t), genKey(t)
	e.reg.add(2)
	if err := e.seal(oldK); err != nil {
		t.Fatal(err)
	}
	e.reg.add(1)
	// Before any rotation the new key is a different operator.
	if err := e.seal(newK); err == nil || !strings.Contains(err.Error(), "keygen --rotate") {
		t.Fatalf("sealing with a new key and no rotation: %v", err)
	}
	rot, err := SealRotation(context.Background(), e.db, e.reg.id, e.opts(oldK), &newK.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	if rot.Size != 2 || rot.Status != StatusSealed {
		t.Fatalf("rotation at %d, %s", rot.Size, rot.Status)
	}
	// The retired key may not seal any more.
	if err := e.seal(oldK); err == nil || !strings.Contains(err.Error(), "not the register's key") {
		t.Fatalf("sealing with the retired key: %v", err)
	}
	if err := e.seal(newK); err != nil {
		t.Fatal(err)
	}
	rots, regs := e.recs(SubjectRotation), e.recs(SubjectRegister)
	if fail, through := e.verify(&oldK.PublicKey, rots, regs); fail != "" || through != 3 {
		t.Fatalf("pinned old key: %q, sealed through %d", fail, through)
	}
	// Without the rotation the new key's seal is a different operator.
	fail, through := e.verify(&oldK.PublicKey, nil, regs)
	if !strings.Contains(fail, "signed by key "+Fingerprint(&newK.PublicKey)) || !strings.Contains(fail, "a different operator") || through != 2 {
		t.Fatalf("no rotation: %q, sealed through %d", fail, through)
	}
	kc := FollowRotations(context.Background(), e.reg.id, &oldK.PublicKey, rots, e.rkey)
	if !kc.Has(&newK.PublicKey) || !kc.Current().Equal(&newK.PublicKey) || !strings.Contains(kc.Describe(), "then from entry 3 "+Fingerprint(&newK.PublicKey)) {
		t.Fatalf("chain %s", kc.Describe())
	}
}

// TestRotationForged: each rotation an attacker can make without the old
// key, or an honest one taken out of its place, stops the chain, so the new
// key's seals are refused.
func TestRotationForged(t *testing.T) {
	e := newRotEnv(t)
	oldK, newK := genKey(t), genKey(t)
	e.reg.add(2)
	if err := e.seal(oldK); err != nil {
		t.Fatal(err)
	}
	regs := e.recs(SubjectRegister)
	last := regs[len(regs)-1]
	stmt := func(register string, size uint64, prev string) []byte {
		b, err := RotationStatement(register, size, prev, &oldK.PublicKey, &newK.PublicKey, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	honest := stmt(e.reg.id, 2, last.RekorUUID)
	pending := &Record{ID: 9, Subject: SubjectRotation, Checkpoint: string(honest), Status: StatusPending}
	pending.Signature, _ = Sign(oldK, honest)
	cases := []struct {
		name string
		rot  *Record
		want string
	}{
		{"signed by the new key", e.uploadForged(honest, newK), "not signed by the old key"},
		{"for a different register", e.uploadForged(stmt("reg-other", 2, last.RekorUUID), oldK), "is for register reg-other, not reg-rot"},
		{"not in the log", pending, "not in the log (pending)"},
		{"log answer of another entry", func() *Record {
			r := e.uploadForged(honest, oldK)
			other := e.uploadForged(stmt(e.reg.id, 2, last.RekorUUID+"0"), oldK)
			r.RekorEntry, r.RekorUUID = other.RekorEntry, other.RekorUUID
			return r
		}(), "not signed by the old key"},
		{"naming another seal", e.uploadForged(stmt(e.reg.id, 2, strings.Repeat("ab", 40)), oldK), "names seal abab"},
	}
	e.reg.add(1)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// What the new key seals after the forged hand-over.
			newRec := sealWith(t, e, newK, regs)
			fail, through := e.verify(&oldK.PublicKey, []*Record{tc.rot}, append(append([]*Record{}, regs...), newRec))
			if !strings.Contains(fail, tc.want) || through != 0 && through != 2 {
				t.Fatalf("got %q (sealed through %d), want %q", fail, through, tc.want)
			}
		})
	}
}

// sealWith makes the register seal the new key would make after regs
// (signed and uploaded, not stored): the forged cases share the database.
func sealWith(t *testing.T, e *rotEnv, k *ecdsa.PrivateKey, regs []*Record) *Record {
	last := regs[len(regs)-1]
	tree, err := UnmarshalTreeState(last.TreeState)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range e.reg.hashes[last.Size:] {
		if err := tree.AppendEntryHashHex(h); err != nil {
			t.Fatal(err)
		}
	}
	cp := &Checkpoint{RegisterID: e.reg.id, Size: tree.Size(), Root: tree.Root(), Head: e.reg.hashes[tree.Size()-1],
		Prev: last.RekorUUID, Time: time.Now().UTC().Truncate(time.Second)}
	text := cp.Marshal()
	sig, _ := Sign(k, text)
	pub, _ := PublicKeyPEM(&k.PublicKey)
	r := &Record{ID: last.ID + 1, Kind: KindRekorV1, Subject: SubjectRegister, Size: cp.Size, Root: hex.EncodeToString(cp.Root),
		Head: cp.Head, Prev: cp.Prev, Checkpoint: string(text), Signature: sig, PublicKey: string(pub), Status: StatusPending}
	if err := upload(context.Background(), e.log.URL, r); err != nil {
		t.Fatal(err)
	}
	r.Status = StatusSealed
	return r
}

// TestRetiredKeyAfterRotation: a seal the old key makes after its own
// rotation (its key stolen, say) is refused even when it is in the log.
func TestRetiredKeyAfterRotation(t *testing.T) {
	e := newRotEnv(t)
	oldK, newK := genKey(t), genKey(t)
	e.reg.add(2)
	if err := e.seal(oldK); err != nil {
		t.Fatal(err)
	}
	if _, err := SealRotation(context.Background(), e.db, e.reg.id, e.opts(oldK), &newK.PublicKey); err != nil {
		t.Fatal(err)
	}
	e.reg.add(1)
	regs := e.recs(SubjectRegister)
	stolen := sealWith(t, e, oldK, regs)
	fail, through := e.verify(&oldK.PublicKey, e.recs(SubjectRotation), append(regs, stolen))
	if !strings.Contains(fail, "signed by key "+Fingerprint(&oldK.PublicKey)+", not the register's key "+Fingerprint(&newK.PublicKey)) || through != 2 {
		t.Fatalf("got %q, sealed through %d", fail, through)
	}
}

func TestRotationStatementStrict(t *testing.T) {
	oldK, newK := genKey(t), genKey(t)
	text, err := RotationStatement("r", 3, NoPrev, &oldK.PublicKey, &newK.PublicKey, time.Unix(1e9, 0))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRotation(string(text))
	if err != nil || !r.NewKey.Equal(&newK.PublicKey) || r.Size != 3 || r.Old != Fingerprint(&oldK.PublicKey) {
		t.Fatalf("%v %+v", err, r)
	}
	other := genKey(t)
	bad := strings.Replace(string(text), "new "+Fingerprint(&newK.PublicKey), "new "+Fingerprint(&other.PublicKey), 1)
	if _, err := ParseRotation(bad); err == nil || !strings.Contains(err.Error(), "not the") {
		t.Fatalf("a new-key line that does not match its fingerprint: %v", err)
	}
	if _, err := ParseRotation(string(text) + "x\n"); err == nil {
		t.Fatal("a line more was accepted")
	}
}
