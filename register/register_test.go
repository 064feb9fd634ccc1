package register

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sample is a realistic decision entry (as the hook builds it).
func sample(i int) *Entry {
	return &Entry{
		Kind:           KindDecision,
		SessionID:      "3f1c2a9e-5b7d-4c21-9a0e-6d2b8f4e1a77",
		ToolUseID:      "toolu_01ABCDEFGHJKMNPQRSTVWXYZ" + string(rune('a'+i%26)),
		Cwd:            "/home/dev/project",
		Tool:           "Bash",
		Input:          []byte(`{"command":"git status --short"}`),
		Decision:       "allow",
		Rules:          nil,
		PermissionMode: "default",
		Attended:       true,
		CatalogVersion: "2026.11.1",
		CatalogHash:    "b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c",
		Version:        "0.1.0-dev",
	}
}

func openTemp(t testing.TB) *Register {
	t.Helper()
	r, err := Open(filepath.Join(t.TempDir(), "state", "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func appendN(t testing.TB, r *Register, n int) []*Entry {
	t.Helper()
	var out []*Entry
	for i := 0; i < n; i++ {
		e := sample(i)
		if i%3 == 1 {
			e.Decision, e.Rules, e.Reason = "deny", []string{"fs.rm-rf-root", "shell.eval"}, "would delete / recursively"
		}
		if err := r.Append(e); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
		out = append(out, e)
	}
	return out
}

func TestAppendRoundTrip(t *testing.T) {
	r := openTemp(t)
	if seq, h, err := r.Head(); err != nil || seq != 0 || h != GenesisHash {
		t.Fatalf("empty head = %d %s %v", seq, h, err)
	}
	es := appendN(t, r, 5)
	for i, e := range es {
		if e.Seq != int64(i+1) {
			t.Errorf("entry %d got seq %d", i, e.Seq)
		}
		if len(e.Salt) != 32 || e.Commitment != Commit(e.Salt, e.Input) || e.Hash != EntryHash(e) {
			t.Errorf("entry %d: salt/commitment/hash not filled: %+v", i, e)
		}
		if i > 0 && e.PrevHash != es[i-1].Hash {
			t.Errorf("entry %d not linked", i)
		}
		got, err := r.Get(e.Seq)
		if err != nil {
			t.Fatal(err)
		}
		if !entriesEqual(got, e) {
			gj, _ := json.Marshal(got)
			ej, _ := json.Marshal(e)
			t.Errorf("round trip differs:\n got %s\nwant %s", gj, ej)
		}
	}
	if es[0].PrevHash != GenesisHash {
		t.Errorf("first prev = %s", es[0].PrevHash)
	}
	seq, h, _ := r.Head()
	if seq != 5 || h != es[4].Hash {
		t.Errorf("head = %d %s", seq, h)
	}
	rep := r.Verify()
	if !rep.OK() || rep.Entries != 5 || rep.Head != es[4].Hash {
		t.Fatalf("verify: %v", rep)
	}
	if _, err := r.Get(99); !errors.Is(err, ErrNoEntry) {
		t.Errorf("Get(99) = %v", err)
	}
	if len(r.ID()) != 32 {
		t.Errorf("ID = %q", r.ID())
	}
}

func entriesEqual(a, b *Entry) bool {
	aj, _ := json.Marshal(a)
	bj, _ := json.Marshal(b)
	return bytes.Equal(aj, bj) && a.Time.Equal(b.Time)
}

func TestPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "state")
	r, err := Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	appendN(t, r, 1)
	for p, want := range map[string]os.FileMode{dir: 0o700, r.Path(): 0o600, r.Path() + "-wal": 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %04o, want %04o", p, fi.Mode().Perm(), want)
		}
	}
	if w := r.Warnings(); len(w) != 0 {
		t.Errorf("warnings on a fresh register: %v", w)
	}
	r.Close()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Join(dir, "register.db"), 0o644)
	r2, err := Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	w := strings.Join(r2.Warnings(), "\n")
	if !strings.Contains(w, "chmod 700 "+dir) || !strings.Contains(w, "chmod 600 ") {
		t.Errorf("warnings = %q", w)
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("Open changed the directory mode silently")
	}
}

func TestEntryHashIsStable(t *testing.T) {
	// A fixed entry has a fixed hash: the encoding in docs/register.md is a
	// contract with third-party verifiers.
	e := &Entry{
		Seq: 1, Kind: KindDecision, Time: time.Date(2026, 11, 30, 4, 52, 22, 123456000, time.UTC),
		SessionID: "s", ToolUseID: "toolu_1", Cwd: "/p", Tool: "Bash",
		Commitment: Commit([]byte("salt"), []byte(`{"command":"ls"}`)), Decision: "deny",
		Rules: []string{"a", "b"}, Reason: "r", Attended: true, PermissionMode: "default",
		CatalogVersion: "1", CatalogHash: "h", Version: "v", Ref: 0, Label: "", PrevHash: GenesisHash,
	}
	got := EntryHash(e)
	if got != EntryHash(e) || len(got) != 64 {
		t.Fatal("unstable")
	}
	// Moving a byte between adjacent fields changes the hash (length prefixes).
	e2 := *e
	e2.Rules = []string{"ab"}
	e3 := *e
	e3.Cwd, e3.Tool = "/pB", "ash"
	if EntryHash(&e2) == got || EntryHash(&e3) == got {
		t.Error("ambiguous encoding")
	}
	// Input and Salt are not hashed.
	e4 := *e
	e4.Input, e4.Salt = []byte("x"), []byte("y")
	if EntryHash(&e4) != got {
		t.Error("Input/Salt must not be hashed")
	}
	if want := goldenHash; got != want {
		t.Errorf("EntryHash = %s, want %s (the documented encoding changed?)", got, want)
	}
	// Schema v5's harness: hashed after everything else, only when set
	// (golden values computed with the same Python script as goldenHash).
	e5 := *e
	e5.Harness = HarnessCodex
	if h := EntryHash(&e5); h != "9d8c0238bee56c23aa54212214af4570c9ddc594a17c5af936267bad70f015af" {
		t.Errorf("EntryHash with harness codex = %s", h)
	}
	e5.Facts = "{}"
	if h := EntryHash(&e5); h != "03e2669591b9e64129213fd1dc9ffcb6e928a2aa78bcd3f5ca2e5966ad988d85" {
		t.Errorf("EntryHash with facts and harness codex = %s", h)
	}
}

func TestHarnessRoundTrips(t *testing.T) {
	// The harness is stored, read back by Get, Each and the stream, and
	// covered by the chain: Verify fails if it were changed.
	r := openTemp(t)
	e := &Entry{Kind: KindDecision, SessionID: "s", ToolUseID: "call_1", Tool: "apply_patch", Decision: "deny",
		Rules: []string{}, Harness: HarnessCodex, Input: []byte(`{}`)}
	if err := r.Append(e); err != nil {
		t.Fatal(err)
	}
	c := &Entry{Kind: KindDecision, SessionID: "s", ToolUseID: "toolu_1", Tool: "Bash", Decision: "allow", Rules: []string{}}
	if err := r.Append(c); err != nil {
		t.Fatal(err)
	}
	got, err := r.Get(e.Seq)
	if err != nil || got.Harness != HarnessCodex {
		t.Fatalf("Get: harness %q, %v", got.Harness, err)
	}
	var seen []string
	if err := r.Each(1, func(x *Entry) error { seen = append(seen, x.Harness); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != HarnessCodex || seen[1] != HarnessClaudeCode {
		t.Fatalf("Each: harnesses %q", seen)
	}
	if rep := r.Verify(); rep.Problem != nil || rep.Entries != 2 {
		t.Fatalf("Verify: %+v", rep)
	}
	// the harness is in the hash: the same entry as Claude Code's is another hash
	x := *got
	x.Harness = HarnessClaudeCode
	if EntryHash(&x) == got.Hash {
		t.Fatal("the harness is not covered by the hash")
	}
}

// goldenHash is the hash of the entry in TestEntryHashIsStable, computed
// independently from the documented encoding (see docs/register.md).
const goldenHash = "cbfbe579d71a67d8edb8435f3bf2e6d332ddf78b069c7ea9d7143ecde132bfbd"

func TestVerifyChainCommitmentOnly(t *testing.T) {
	r := openTemp(t)
	es := appendN(t, r, 6)
	i := 0
	rep := VerifyChain(func() (*Entry, error) {
		if i == len(es) {
			return nil, io.EOF
		}
		e := *es[i]
		if i%2 == 0 { // withhold every other input
			e.Input, e.Salt = nil, nil
		}
		i++
		return &e, nil
	})
	if !rep.OK() || rep.Entries != 6 {
		t.Fatalf("commitment-only bundle: %v", rep)
	}
	// A segment starting mid-chain.
	i = 3
	rep = VerifyChainFrom(3, es[2].Hash, func() (*Entry, error) {
		if i == len(es) {
			return nil, nil
		}
		i++
		return es[i-1], nil
	})
	if !rep.OK() || rep.Entries != 3 || rep.Head != es[5].Hash {
		t.Fatalf("segment: %v", rep)
	}
}
