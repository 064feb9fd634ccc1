package seal_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/secure-systems-lab/go-securesystemslib/encrypted"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"

	"github.com/sentinel-guard/sentinel/seal"
	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

// fakeRegister is an EntrySource over random 32-byte entry hashes.
type fakeRegister struct {
	id     string
	hashes []string
	reads  int // entries read by EachHash, to prove sealing reads only the tail
}

func (f *fakeRegister) ID() string { return f.id }
func (f *fakeRegister) EachHash(after uint64, fn func(uint64, string) error) error {
	for i := after; i < uint64(len(f.hashes)); i++ {
		f.reads++
		if err := fn(i+1, f.hashes[i]); err != nil {
			return err
		}
	}
	return nil
}
func (f *fakeRegister) add(n int) {
	for range n {
		var b [32]byte
		rand.Read(b[:])
		f.hashes = append(f.hashes, hex.EncodeToString(b[:]))
	}
}

func openDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

type env struct {
	t    *testing.T
	log  *rekortest.Log
	db   *sql.DB
	reg  *fakeRegister
	key  *ecdsa.PrivateKey
	rkey *seal.RekorKey
}

func newEnv(t *testing.T) *env {
	log := rekortest.New()
	t.Cleanup(log.Close)
	rkey, err := seal.ParseRekorKey(log.PublicKeyPEM())
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, log: log, db: openDB(t), reg: &fakeRegister{id: "reg-test"}, key: newKey(t), rkey: rkey}
}

func (e *env) seal() (*seal.Result, error) {
	return seal.SealRegister(context.Background(), e.db, e.reg, seal.Options{RekorURL: e.log.URL, Key: e.key, Timeout: 5 * time.Second})
}

func (e *env) mustSeal() *seal.Result {
	e.t.Helper()
	res, err := e.seal()
	if err != nil {
		e.t.Fatal(err)
	}
	return res
}

func (e *env) records() []*seal.Record {
	e.t.Helper()
	recs, err := seal.Records(e.db, seal.SubjectRegister)
	if err != nil {
		e.t.Fatal(err)
	}
	return recs
}

// check runs the seal checker over hashes with recs.
func (e *env) check(recs []*seal.Record, hashes []string, operator *ecdsa.PublicKey, rkey *seal.RekorKey) *seal.SealChecker {
	c := seal.NewSealChecker(context.Background(), e.reg.id, recs, operator, rkey)
	for i, h := range hashes {
		if err := c.Add(uint64(i+1), h); err != nil {
			e.t.Fatal(err)
		}
	}
	c.Finish()
	return c
}

func TestKeygenRefusesOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "signing.key")
	k, err := seal.GenerateKey(path, []byte("pw"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v, want 0700", st.Mode().Perm())
	}
	loaded, err := seal.LoadKey(path, func() ([]byte, error) { return []byte("pw"), nil })
	if err != nil || !loaded.Equal(k) {
		t.Fatalf("LoadKey: %v", err)
	}
	pub, err := seal.LoadPublicKey(seal.PublicKeyPath(path))
	if err != nil || !pub.Equal(&k.PublicKey) {
		t.Fatalf("LoadPublicKey: %v", err)
	}
	before, _ := os.ReadFile(path)
	if _, err := seal.GenerateKey(path, nil); err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Fatalf("second GenerateKey: %v, want refusal", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Fatal("key was overwritten")
	}
}

func TestCheckpointRoundTripIsStrict(t *testing.T) {
	cp := &seal.Checkpoint{RegisterID: "r1", Size: 7, Root: make([]byte, 32), Head: strings.Repeat("ab", 32),
		Prev: seal.NoPrev, Time: time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)}
	text := cp.Marshal()
	got, err := seal.ParseCheckpoint(text)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Marshal()) != string(text) {
		t.Fatal("round trip changed the text")
	}
	for _, bad := range []string{
		strings.Replace(string(text), "size 7", "size 07", 1),
		strings.Replace(string(text), "v1", "v2", 1),
		string(text) + "extra\n",
		strings.TrimSuffix(string(text), "\n"),
	} {
		if _, err := seal.ParseCheckpoint([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestTreeMatchesRFC6962AndResumes(t *testing.T) {
	ref := testonly.New(rfc6962.DefaultHasher)
	tree := seal.NewTree()
	if hex.EncodeToString(tree.Root()) != hex.EncodeToString(ref.Hash()) {
		t.Fatal("empty roots differ")
	}
	for i := range 70 {
		h := sha256.Sum256([]byte{byte(i)})
		ref.AppendData(h[:])
		if err := tree.AppendEntryHash(h[:]); err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(tree.Root()) != hex.EncodeToString(ref.Hash()) {
			t.Fatalf("size %d: root differs from the reference tree", i+1)
		}
		// Persist and restore at every size: the state alone must suffice.
		var err error
		if tree, err = seal.UnmarshalTreeState(tree.MarshalState()); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSealAndVerify(t *testing.T) {
	e := newEnv(t)
	e.reg.add(5)
	res := e.mustSeal()
	if res.New == nil || res.New.Status != seal.StatusSealed || res.New.Prev != seal.NoPrev {
		t.Fatalf("first seal: %+v", res.New)
	}
	e.reg.add(3)
	e.reg.reads = 0
	e.mustSeal()
	if e.reg.reads != 3 {
		t.Fatalf("second seal read %d entries, want only the 3 new ones", e.reg.reads)
	}
	recs := e.records()
	if len(recs) != 2 || recs[1].Prev != recs[0].RekorUUID || len(recs[0].RekorUUID) != 80 {
		t.Fatalf("seal linkage: %+v", recs)
	}
	// Nothing new: no new seal.
	if res = e.mustSeal(); res.New != nil || res.Size != 8 {
		t.Fatalf("up-to-date seal made %+v", res.New)
	}
	e.reg.add(2) // unsealed tail
	c := e.check(recs, e.reg.hashes, &e.key.PublicKey, e.rkey)
	if msg := c.FirstError(); msg != "" {
		t.Fatal(msg)
	}
	if c.SealedThrough() != 8 {
		t.Fatalf("sealed through %d, want 8", c.SealedThrough())
	}
}

func TestPendingThenUploaded(t *testing.T) {
	e := newEnv(t)
	e.reg.add(4)
	e.log.Fail.Store(true)
	res, err := e.seal()
	var ue *seal.UploadError
	if !errors.As(err, &ue) || res == nil || res.Pending == nil || res.Pending.Status != seal.StatusPending {
		t.Fatalf("want a pending seal and an UploadError, got %+v, %v", res, err)
	}
	// While Rekor is down, no second checkpoint is made.
	e.reg.add(1)
	if _, err := e.seal(); err == nil {
		t.Fatal("seal succeeded with Rekor down")
	}
	if recs := e.records(); len(recs) != 1 || recs[0].Status != seal.StatusPending {
		t.Fatalf("records while down: %d", len(recs))
	}
	c := e.check(e.records(), e.reg.hashes, &e.key.PublicKey, e.rkey)
	if c.SealedThrough() != 0 || c.FirstError() != "" {
		t.Fatalf("pending seal counted: through %d, %q", c.SealedThrough(), c.FirstError())
	}
	e.log.Fail.Store(false)
	res = e.mustSeal()
	if len(res.Uploaded) != 1 || res.New == nil || res.New.Size != 5 {
		t.Fatalf("after recovery: uploaded %d, new %+v", len(res.Uploaded), res.New)
	}
	recs := e.records()
	if recs[0].Status != seal.StatusSealed || recs[1].Prev != recs[0].RekorUUID {
		t.Fatalf("records after recovery: %+v", recs)
	}
	if c := e.check(recs, e.reg.hashes, &e.key.PublicKey, e.rkey); c.FirstError() != "" || c.SealedThrough() != 5 {
		t.Fatalf("%q, through %d", c.FirstError(), c.SealedThrough())
	}
}

// TestLostAnswerRecoveredBy409: the upload's answer is lost; the retry
// gets a 409 and the seal is recovered from the existing entry, nothing
// signed or uploaded twice. Real Rekor's 409 has a Location header; a
// proxy may drop it, and then the UUID in the message, and failing that
// the UUID computed from the entry, still find it (before, such a seal
// stayed pending for ever).
func TestLostAnswerRecoveredBy409(t *testing.T) {
	for _, tc := range []struct {
		name               string
		noLocation, noUUID bool
	}{{"location", false, false}, {"uuid-in-message", true, false}, {"computed-uuid", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.log.NoConflictLocation.Store(tc.noLocation)
			e.log.NoConflictUUID.Store(tc.noUUID)
			e.reg.add(3)
			e.log.DropAnswer.Store(true)
			if res, err := e.seal(); err == nil || res.Pending == nil {
				t.Fatal("lost answer not reported")
			}
			e.log.Fail.Store(false)
			res := e.mustSeal()
			if len(res.Uploaded) != 1 || e.log.Uploads != 1 || e.log.Size() != 1 {
				t.Fatalf("uploaded %d, log creates %d, size %d", len(res.Uploaded), e.log.Uploads, e.log.Size())
			}
			recs := e.records()
			if len(recs) != 1 || recs[0].Status != seal.StatusSealed {
				t.Fatalf("records %+v", recs)
			}
			if c := e.check(recs, e.reg.hashes, &e.key.PublicKey, e.rkey); c.FirstError() != "" || c.SealedThrough() != 3 {
				t.Fatal(c.FirstError())
			}
		})
	}
}

func TestShardedLog(t *testing.T) {
	e := newEnv(t)
	e.log.Offset = 1000
	e.reg.add(2)
	e.mustSeal()
	recs := e.records()
	le, err := recs[0].Entry()
	if err != nil || *le.LogIndex != 1000 || *le.Verification.InclusionProof.LogIndex != 0 {
		t.Fatalf("sharded indexes: %v", err)
	}
	if c := e.check(recs, e.reg.hashes, &e.key.PublicKey, e.rkey); c.FirstError() != "" {
		t.Fatal(c.FirstError())
	}
}

func TestKeyChangeRefused(t *testing.T) {
	e := newEnv(t)
	e.reg.add(2)
	e.mustSeal()
	e.reg.add(1)
	e.key = newKey(t)
	if _, err := e.seal(); err == nil || !strings.Contains(err.Error(), "is not the register's key") || !strings.Contains(err.Error(), "keygen --rotate") {
		t.Fatalf("got %v", err)
	}
}

// editEntry rewrites one field of a stored Rekor answer.
func editEntry(t *testing.T, r *seal.Record, edit func(m map[string]any)) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.RekorEntry), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, _ := json.Marshal(m)
	r.RekorEntry = string(b)
}

func TestTamperMatrix(t *testing.T) {
	e := newEnv(t)
	e.reg.add(6)
	e.mustSeal()
	e.reg.add(4)
	e.mustSeal()
	hashes := e.reg.hashes
	otherLog := rekortest.New()
	defer otherLog.Close()
	otherRekor, _ := seal.ParseRekorKey(otherLog.PublicKeyPEM())

	flip := func(s string) string { // change one hex digit
		b := []byte(s)
		if b[0] == '0' {
			b[0] = '1'
		} else {
			b[0] = '0'
		}
		return string(b)
	}
	cases := []struct {
		name     string
		recs     func([]*seal.Record)
		hashes   func([]string) []string
		operator *ecdsa.PublicKey
		rekor    *seal.RekorKey
		want     string
	}{
		{name: "entry hash changed", hashes: func(h []string) []string { h[2] = flip(h[2]); return h },
			want: "seal 1: Merkle root over entries 1..6"},
		{name: "head entry changed", hashes: func(h []string) []string { h[5] = flip(h[5]); return h },
			want: "seal 1: chain head"},
		{name: "truncated after seal", hashes: func(h []string) []string { return h[:8] },
			want: "seal 2: covers 10 entries but only 8 are present"},
		{name: "body edited", recs: func(r []*seal.Record) {
			editEntry(t, r[0], func(m map[string]any) { m["body"] = "e30=" })
		}, want: "seal 1: the Rekor signed entry timestamp does not verify"},
		{name: "SET edited", recs: func(r []*seal.Record) {
			editEntry(t, r[1], func(m map[string]any) {
				m["verification"].(map[string]any)["signedEntryTimestamp"] = "MEUCIQ=="
			})
		}, want: "seal 2: the Rekor signed entry timestamp does not verify"},
		{name: "inclusion proof hash edited", recs: func(r []*seal.Record) {
			editEntry(t, r[0], func(m map[string]any) {
				ip := m["verification"].(map[string]any)["inclusionProof"].(map[string]any)
				ip["hashes"] = []string{strings.Repeat("00", 32)}
			})
		}, want: "seal 1: the Rekor inclusion proof does not verify against the pinned key"},
		{name: "integratedTime edited", recs: func(r []*seal.Record) {
			editEntry(t, r[0], func(m map[string]any) { m["integratedTime"] = 1 })
		}, want: "seal 1: the Rekor signed entry timestamp does not verify"},
		{name: "logID edited", recs: func(r []*seal.Record) {
			editEntry(t, r[0], func(m map[string]any) { m["logID"] = strings.Repeat("ab", 32) })
		}, want: "seal 1: the Rekor log id abab"},
		{name: "checkpoint edited", recs: func(r []*seal.Record) {
			r[0].Checkpoint = strings.Replace(r[0].Checkpoint, "size 6", "size 5", 1)
			r[0].Size = 5
		}, want: "seal 1: checkpoint signature does not verify with the operator key"},
		{name: "uuid edited", recs: func(r []*seal.Record) { r[0].RekorUUID = flip(r[0].RekorUUID) },
			want: "seal 2: checkpoint names previous seal"},
		{name: "different operator key", operator: &newKey(t).PublicKey,
			want: "seal 1: signed by key " + seal.Fingerprint(&e.key.PublicKey) + ", not the register's key"},
		{name: "different Rekor key", rekor: otherRekor,
			want: "seal 1: the Rekor log id " + e.log.LogID() + " is not the pinned Rekor key's"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs := e.records()
			h := append([]string(nil), hashes...)
			if tc.recs != nil {
				tc.recs(recs)
			}
			if tc.hashes != nil {
				h = tc.hashes(h)
			}
			op, rk := &e.key.PublicKey, e.rkey
			if tc.operator != nil {
				op = tc.operator
			}
			if tc.rekor != nil {
				rk = tc.rekor
			}
			c := e.check(recs, h, op, rk)
			got := c.FirstError()
			if !strings.HasPrefix(got, tc.want) {
				t.Fatalf("got  %q\nwant %q...", got, tc.want)
			}
		})
	}
	// Untampered still verifies (the cases worked on copies).
	if c := e.check(e.records(), hashes, &e.key.PublicKey, e.rkey); c.FirstError() != "" {
		t.Fatal(c.FirstError())
	}
}

func TestSealArtifact(t *testing.T) {
	e := newEnv(t)
	sum := sha256.Sum256([]byte(`{"stops":[]}`))
	hexsum := hex.EncodeToString(sum[:])
	rec, err := seal.SealArtifact(context.Background(), e.db, seal.Options{RekorURL: e.log.URL, Key: e.key}, "census", hexsum)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := seal.VerifyArtifact(ctx, rec, "census", hexsum, &e.key.PublicKey, e.rkey); err != nil {
		t.Fatal(err)
	}
	other := fmt.Sprintf("%x", sha256.Sum256([]byte("x")))
	if err := seal.VerifyArtifact(ctx, rec, "census", other, &e.key.PublicKey, e.rkey); err == nil {
		t.Fatal("artifact seal verified for another hash")
	}
	recs, _ := seal.Records(e.db, seal.SubjectArtifact)
	if len(recs) != 1 || recs[0].Status != seal.StatusSealed {
		t.Fatalf("stored artifact records: %d", len(recs))
	}
	if regs, _ := seal.Records(e.db, seal.SubjectRegister); len(regs) != 0 {
		t.Fatal("artifact seal listed as a register seal")
	}
}

func TestOnline(t *testing.T) {
	e := newEnv(t)
	e.reg.add(3)
	e.mustSeal()
	e.reg.add(2)
	e.mustSeal()
	ctx := context.Background()
	res, err := seal.VerifyOnline(ctx, e.records(), e.rkey, "", nil)
	if err != nil || res.Error != "" || res.Checked != 2 || res.TreeSize != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	// Another log that never saw the entries.
	other := rekortest.New()
	defer other.Close()
	otherKey, _ := seal.ParseRekorKey(other.PublicKeyPEM())
	res, err = seal.VerifyOnline(ctx, e.records(), otherKey, other.URL, nil)
	if err != nil || !strings.Contains(res.Error, "is not in the live log") {
		t.Fatalf("%+v %v", res, err)
	}
	// The live log signs with another key than the pinned one.
	res, err = seal.VerifyOnline(ctx, e.records(), otherKey, "", nil)
	if err != nil || !strings.Contains(res.Error, "is not the pinned Rekor key") {
		t.Fatalf("%+v %v", res, err)
	}
	// Unreachable.
	e.log.Fail.Store(true)
	var ue *seal.UnreachableError
	if _, err := seal.VerifyOnline(ctx, e.records(), e.rkey, "", nil); !errors.As(err, &ue) {
		t.Fatalf("want UnreachableError, got %v", err)
	}
}

// The monitor asks the log's index for everything the operator key signed:
// a seal the records do not hold (cut, rolled back, deleted, rewritten) fails.
func TestOnlineMonitor(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	pub, _ := seal.PublicKeyPEM(&e.key.PublicKey)
	e.reg.add(3)
	e.mustSeal()
	if _, err := seal.SealArtifact(ctx, e.db, seal.Options{RekorURL: e.log.URL, Key: e.key}, "protocol",
		fmt.Sprintf("%x", sha256.Sum256([]byte("p")))); err != nil {
		t.Fatal(err)
	}
	e.reg.add(2)
	e.mustSeal()
	arts, _ := seal.Records(e.db, seal.SubjectArtifact)
	all := append(e.records(), arts...)
	res, err := seal.VerifyOnline(ctx, all, e.rkey, "", pub)
	if err != nil || res.Error != "" || res.Monitor == nil || res.Monitor.Entries != 3 || len(res.Monitor.Unaccounted) != 0 {
		t.Fatalf("%+v %+v %v", res, res.Monitor, err)
	}
	// Without the artifact, or without the last seal (a cut bundle, a
	// rolled-back register), the log holds what the records do not.
	for name, recs := range map[string][]*seal.Record{"artifact dropped": e.records(), "last seal cut": append(e.records()[:1], arts...)} {
		res, err := seal.VerifyOnline(ctx, recs, e.rkey, "", pub)
		if err != nil || !strings.Contains(res.Error, "the log holds 1 entry signed by the operator key that this register or bundle does not account for") ||
			len(res.Monitor.Unaccounted) != 1 {
			t.Fatalf("%s: %+v %v", name, res, err)
		}
	}
	// Another key's entries are not this key's business.
	other := newEnv(t)
	other.log = e.log
	other.reg.add(1)
	other.mustSeal()
	if res, err := seal.VerifyOnline(ctx, all, e.rkey, "", pub); err != nil || res.Error != "" || res.Monitor.Entries != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	// A log without a search index cannot monitor: said so, not passed.
	e.log.NoIndex.Store(true)
	var ie *seal.IndexUnavailableError
	if _, err := seal.VerifyOnline(ctx, all, e.rkey, "", pub); !errors.As(err, &ie) {
		t.Fatalf("want IndexUnavailableError, got %v", err)
	}
}

// The encrypted key is cosign's format: what cosign's LoadPrivateKey does
// (PEM type, encrypted.Decrypt, PKCS#8) recovers it; a wrong password does
// not; an unencrypted key still loads, flagged.
func TestEncryptedKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "signing.key")
	k, err := seal.GenerateKey(path, []byte("correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "ENCRYPTED SIGSTORE PRIVATE KEY" {
		t.Fatalf("PEM type %v", block)
	}
	if bytes.Contains(data, []byte("PRIVATE KEY-----\nMIG")) {
		t.Fatal("looks like plain PKCS#8")
	}
	der, err := encrypted.Decrypt(block.Bytes, []byte("correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	if pk, err := x509.ParsePKCS8PrivateKey(der); err != nil || !k.Equal(pk) {
		t.Fatalf("cosign's steps do not recover the key: %v", err)
	}
	if _, err := seal.LoadKey(path, func() ([]byte, error) { return []byte("wrong"), nil }); err == nil ||
		!strings.Contains(err.Error(), "cannot decrypt the key (wrong password?)") {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := seal.LoadKey(path, nil); err == nil {
		t.Fatal("an encrypted key loaded without a password")
	}
	if enc, _ := seal.KeyEncrypted(path); !enc {
		t.Fatal("KeyEncrypted false")
	}
	if _, err := seal.GenerateKey(filepath.Join(dir, "empty.key"), []byte{}); err == nil {
		t.Fatal("empty password accepted")
	}
	plain := filepath.Join(dir, "plain.key")
	pk, err := seal.GenerateKey(plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := seal.LoadKey(plain, nil)
	if !errors.Is(err, seal.ErrUnencrypted) || got == nil || !got.Equal(pk) {
		t.Fatalf("unencrypted key: %v", err)
	}
}

// The last checkpoint verified is kept per log: a later run against a tree
// that is smaller (rolled back) or of the same size with another root (a
// fork), both signed by the pinned key, fails; a grown, consistent tree is
// accepted and kept; an edited kept file is refused.
func TestOnlineKeepsCheckpoint(t *testing.T) {
	e := newEnv(t)
	e.reg.add(3)
	e.mustSeal()
	e.reg.add(2)
	e.mustSeal()
	ctx := context.Background()
	state := t.TempDir()
	o := seal.OnlineOptions{URL: e.log.URL, StateDir: state}
	res, err := seal.VerifyOnlineWith(ctx, e.records(), e.rkey, nil, o)
	if err != nil || res.Error != "" || res.Previous != nil {
		t.Fatalf("first run: %+v %v", res, err)
	}
	res, err = seal.VerifyOnlineWith(ctx, e.records(), e.rkey, nil, o)
	if err != nil || res.Error != "" || res.Previous == nil || res.Previous.Size != 2 {
		t.Fatalf("second run: %+v %v", res, err)
	}
	// The same key serving a tree of one entry: a rollback for this reader.
	fork := rekortest.NewWithKey(e.log.Key)
	defer fork.Close()
	f := &env{t: t, log: fork, db: openDB(t), reg: &fakeRegister{id: "reg-fork"}, key: e.key, rkey: e.rkey}
	f.reg.add(1)
	f.mustSeal()
	res, err = seal.VerifyOnlineWith(ctx, f.records(), e.rkey, nil, seal.OnlineOptions{URL: fork.URL, StateDir: state})
	if err != nil || !strings.Contains(res.Error, "fewer than the 2 verified") {
		t.Fatalf("rollback: %+v %v", res, err)
	}
	// Two entries, other roots: a fork.
	f.reg.add(1)
	f.mustSeal()
	res, err = seal.VerifyOnlineWith(ctx, f.records(), e.rkey, nil, seal.OnlineOptions{URL: fork.URL, StateDir: state})
	if err != nil || !strings.Contains(res.Error, "a forked log") {
		t.Fatalf("fork: %+v %v", res, err)
	}
	// The honest log grows: consistent with the kept one, kept anew.
	e.reg.add(1)
	e.mustSeal()
	res, err = seal.VerifyOnlineWith(ctx, e.records(), e.rkey, nil, o)
	if err != nil || res.Error != "" || res.Previous == nil || res.Previous.Size != 2 || res.TreeSize != 3 {
		t.Fatalf("grown: %+v %v", res, err)
	}
	// An edited kept checkpoint is refused.
	path := filepath.Join(state, "checkpoints", e.rkey.LogID+".json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(`"checkpoint": "rekor.local`), []byte(`"checkpoint": "rekor.locaL`), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err = seal.VerifyOnlineWith(ctx, e.records(), e.rkey, nil, o)
	if err != nil || !strings.Contains(res.Error, "does not verify against the pinned key: it was edited") {
		t.Fatalf("edited: %+v %v", res, err)
	}
}
