package bundle_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

type fixture struct {
	reg  *register.Register
	key  *ecdsa.PrivateKey
	pub  []byte
	rkey *seal.RekorKey
}

// newFixture: a real register of 7 entries, sealed at 5, in a test Rekor.
func newFixture(t *testing.T) *fixture {
	log := rekortest.New()
	t.Cleanup(log.Close)
	reg, err := register.Open(filepath.Join(t.TempDir(), "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub, _ := seal.PublicKeyPEM(&key.PublicKey)
	rkey, _ := seal.ParseRekorKey(log.PublicKeyPEM())
	for i := range 7 {
		if i == 5 {
			if _, err := seal.SealRegister(context.Background(), reg.DB(), seal.RegisterSource(reg), seal.Options{RekorURL: log.URL, Key: key}); err != nil {
				t.Fatal(err)
			}
		}
		err := reg.Append(&register.Entry{Kind: register.KindDecision, Tool: "Bash", Decision: "deny",
			Input: fmt.Appendf(nil, `{"command":"rm -rf /tmp/x%d"}`, i), Rules: []string{"rm-rf"}})
		if err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{reg: reg, key: key, pub: pub, rkey: rkey}
}

func (f *fixture) export(t *testing.T, disclose string) *bundle.Bundle {
	return f.exportLevels(t, disclose, "all")
}

func (f *fixture) exportLevels(t *testing.T, disclose, fields string) *bundle.Bundle {
	t.Helper()
	sel, err := bundle.ParseSelection(disclose)
	if err != nil {
		t.Fatal(err)
	}
	fsel, err := bundle.ParseSelection(fields)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := bundle.Write(&buf, f.reg, f.pub, bundle.Disclosure{Input: sel, Fields: fsel, IncludeUnsealed: true}, time.Now()); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Decode(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return b
}

func (f *fixture) verify(b *bundle.Bundle, operator *ecdsa.PublicKey) *seal.Report {
	return b.Verify(context.Background(), "b.json", seal.VerifyOptions{Operator: operator, Rekor: f.rkey, AllowUnsealed: true})
}

func TestSelection(t *testing.T) {
	sel, err := bundle.ParseSelection("1,5,7-9")
	if err != nil || len(sel.Seqs) != 5 || !sel.Seqs[8] || sel.Seqs[6] {
		t.Fatalf("%+v %v", sel, err)
	}
	for _, bad := range []string{"0", "3-1", "x", "1,,2", "-4"} {
		if _, err := bundle.ParseSelection(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestBundleVerifiesAndDisclosingLaterKeepsSeals(t *testing.T) {
	f := newFixture(t)
	none := f.export(t, "none")
	some := f.export(t, "2,6-7")
	hashes := f.exportLevels(t, "none", "none")
	for name, b := range map[string]*bundle.Bundle{"none": none, "some": some, "all": f.export(t, "all"), "withheld": hashes} {
		rep := f.verify(b, nil)
		if !rep.OK || rep.Sealed != 5 || rep.Unsealed != 2 || rep.Entries != 7 {
			t.Fatalf("%s: %+v", name, rep)
		}
	}
	if *f.verify(some, nil).Disclosed != 3 || *f.verify(none, nil).Disclosed != 0 {
		t.Fatal("disclosed counts")
	}
	for _, e := range none.Entries {
		if e.Input != nil || e.Salt != nil || e.Commitment == "" {
			t.Fatalf("entry %d disclosed in a none bundle", e.Seq)
		}
	}
	if some.Entries[1].Input == nil || some.Entries[0].Input != nil {
		t.Fatal("wrong entries disclosed")
	}
	if w := f.verify(hashes, nil).Withheld; w == nil || *w != 7 {
		t.Fatalf("withheld %v", w)
	}
	for _, e := range hashes.Entries {
		if !seal.Withheld(e) || e.Cwd != "" || e.Rules != nil || !e.Time.IsZero() {
			t.Fatalf("entry %d shows more than its hash: %+v", e.Seq, e)
		}
	}
	// Without --allow-unsealed the unsealed tail fails.
	rep := hashes.Verify(context.Background(), "b.json", seal.VerifyOptions{Rekor: f.rkey})
	if rep.OK || !strings.Contains(rep.Failure, "entries 6..7 are not covered by any verified seal") {
		t.Fatalf("partly sealed bundle: %+v", rep)
	}
	// Same seals, byte for byte, whatever is disclosed.
	a, _ := json.Marshal(none.Seals)
	b, _ := json.Marshal(some.Seals)
	if !bytes.Equal(a, b) {
		t.Fatal("seals differ between bundles")
	}
}

func TestBundleTampered(t *testing.T) {
	f := newFixture(t)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	otherPEM, _ := seal.PublicKeyPEM(&other.PublicKey)
	cases := []struct {
		name     string
		edit     func(b *bundle.Bundle)
		operator *ecdsa.PublicKey
		want     string
	}{
		{"disclosed input edited", func(b *bundle.Bundle) { b.Entries[1].Input = []byte(`{"command":"ls"}`) },
			nil, "entry 2: commitment does not match its input"},
		{"input without salt", func(b *bundle.Bundle) { b.Entries[2].Input = []byte(`{}`) },
			nil, "entry 3: carries an input without its salt"},
		{"reason edited", func(b *bundle.Bundle) { b.Entries[3].Reason = "ok" },
			nil, "entry 4: hash does not match its content"},
		{"entry removed", func(b *bundle.Bundle) { b.Entries = append(b.Entries[:2], b.Entries[3:]...) },
			nil, "entry 4 follows entry 2: entry 3 is missing"},
		{"entries swapped", func(b *bundle.Bundle) { b.Entries[1], b.Entries[2] = b.Entries[2], b.Entries[1] },
			nil, "entry 3 follows entry 1: entry 2 is missing"},
		{"truncated after the seal", func(b *bundle.Bundle) { b.Entries = b.Entries[:4] },
			nil, "seal 1: covers 5 entries but only 4 are present"},
		{"Rekor answer edited", func(b *bundle.Bundle) {
			var m map[string]any
			json.Unmarshal(b.Seals[0].RekorEntry, &m)
			m["logIndex"] = 9
			b.Seals[0].RekorEntry, _ = json.Marshal(m)
		}, nil, "seal 1: the Rekor signed entry timestamp does not verify"},
		{"operator key replaced in the bundle", func(b *bundle.Bundle) { b.OperatorKey = string(otherPEM) },
			nil, "seal 1: signed by key "},
		{"operator key pinned to another", nil, &other.PublicKey, "the bundle's operator key"},
		{"withheld entry's link edited", func(b *bundle.Bundle) {
			b.Entries[3] = &register.Entry{Seq: 4, PrevHash: b.Entries[0].Hash, Hash: b.Entries[3].Hash}
		}, nil, "entry 4: previous hash does not match entry 3"},
		{"withheld entry's hash edited", func(b *bundle.Bundle) {
			b.Entries[3] = &register.Entry{Seq: 4, PrevHash: b.Entries[2].Hash, Hash: b.Entries[0].Hash}
		}, nil, "entry 5: previous hash does not match entry 4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := f.export(t, "1-2")
			if tc.edit != nil {
				tc.edit(b)
			}
			rep := f.verify(b, tc.operator)
			if rep.OK || !strings.HasPrefix(rep.Failure, tc.want) {
				t.Fatalf("failure %q, want %q...", rep.Failure, tc.want)
			}
		})
	}
}

func TestDecodeStrict(t *testing.T) {
	for _, bad := range []string{`{"format":"sentinel-bundle/v2"}`, `{"format":"sentinel-bundle/v1","extra":1}`,
		`{"format":"sentinel-bundle/v1","entries":[]} {}`, `{"format":"sentinel-bundle/v3","entries":[]}`,
		`{"format":"sentinel-bundle/v2","entries":[],"entries":[]}`, `{"entries":[{"seq":1,"x":2}],"format":"sentinel-bundle/v2"}`, `[`} {
		if _, err := bundle.Decode(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// By default a bundle stops at the last seal and counts what it left out;
// so it verifies without --allow-unsealed.
func TestWriteStopsAtLastSeal(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	c, err := bundle.Write(&buf, f.reg, f.pub, bundle.Disclosure{Fields: bundle.Selection{All: true}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if c.Entries != 5 || c.LeftOut != 2 || c.Sealed != 5 {
		t.Fatalf("counts %+v, want 5 written, 2 left out after the seal at 5", c)
	}
	b, err := bundle.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rep := b.Verify(context.Background(), "b.json", seal.VerifyOptions{Rekor: f.rkey})
	if !rep.OK || rep.Entries != 5 || rep.Unsealed != 0 {
		t.Fatalf("%+v", rep)
	}
}

// A bundle read from its file streams its entries at every pass and
// verifies exactly as the same bundle decoded into memory.
func TestReadStreams(t *testing.T) {
	f := newFixture(t)
	path := filepath.Join(t.TempDir(), "b.json")
	var buf bytes.Buffer
	sel, _ := bundle.ParseSelection("2")
	if _, err := bundle.Write(&buf, f.reg, f.pub, bundle.Disclosure{Input: sel, Fields: bundle.Selection{All: true}, IncludeUnsealed: true}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Read(path)
	if err != nil || b.Entries != nil {
		t.Fatalf("%v %v", b, err)
	}
	rep := f.verify(b, nil)
	if !rep.OK || rep.Entries != 7 || rep.Sealed != 5 || *rep.Disclosed != 1 {
		t.Fatalf("%+v", rep)
	}
	n := 0
	if err := b.Each(func(*register.Entry) error { n++; return nil }); err != nil || n != 7 {
		t.Fatalf("second pass: %d %v", n, err)
	}
	// Truncated on disk: the stream's error is the verdict, not a panic.
	if err := os.WriteFile(path, buf.Bytes()[:buf.Len()-300], 0o600); err != nil {
		t.Fatal(err)
	}
	if rep := f.verify(b, nil); rep.OK || !strings.Contains(rep.Failure, "cannot be read") {
		t.Fatalf("truncated: %+v", rep.Failure)
	}
}
