package register

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJournalMergeOrder: entries journaled before the register exists are
// merged first, in journal order, by the first append.
func TestJournalMergeOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	var js []*Entry
	for i := 0; i < 3; i++ {
		e := sample(i)
		e.Kind = ""
		if err := Journal(dir, e); err != nil {
			t.Fatal(err)
		}
		if len(e.Salt) != 32 || e.Commitment != Commit(e.Salt, e.Input) || e.Time.IsZero() {
			t.Fatalf("Journal did not fill salt/commitment/time: %+v", e)
		}
		js = append(js, e)
	}
	fi, err := os.Stat(filepath.Join(dir, JournalFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("journal file: %v %v", fi, err)
	}
	r, err := Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n, err := r.MergeJournal(); err != nil || n != 3 {
		t.Fatalf("MergeJournal = %d, %v", n, err)
	}
	for i, j := range js {
		got, _ := r.Get(int64(i + 1))
		if got.Commitment != j.Commitment || got.Kind != KindError || got.Reason != "[journaled]" {
			t.Errorf("entry %d = %+v", i+1, got)
		}
	}
	if n, err := r.MergeJournal(); err != nil || n != 0 {
		t.Fatalf("second MergeJournal = %d, %v", n, err)
	}
}

// TestJournalExactlyOnce: a merge that committed but died before removing
// the journal (simulated by putting the journal back) merges nothing twice;
// a torn last line (a writer killed mid-write) becomes an error entry that
// keeps its bytes.
func TestJournalExactlyOnce(t *testing.T) {
	r := openTemp(t)
	appendN(t, r, 1)
	for i := 0; i < 2; i++ {
		if err := Journal(r.Dir(), sample(i)); err != nil {
			t.Fatal(err)
		}
	}
	jpath := filepath.Join(r.Dir(), JournalFile)
	saved, _ := os.ReadFile(jpath)
	appendN(t, r, 1)   // merges 2, appends 1 -> 4
	torn := saved[:40] // no newline: a writer killed mid-line
	os.WriteFile(jpath, append(append([]byte{}, saved...), torn...), 0o600)
	appendN(t, r, 1) // 2 already merged, 1 torn line -> error entry, then 1 -> 6
	if n, _ := r.Count(); n != 6 {
		t.Fatalf("%d entries, want 6", n)
	}
	e, _ := r.Get(5)
	if e.Kind != KindError || !strings.Contains(e.Reason, "could not be decoded (torn write?)") || string(e.Input) != strings.TrimPrefix(string(torn), "\n") {
		t.Errorf("torn line merged as %+v", e)
	}
	if rep := r.Verify(); !rep.OK() {
		t.Fatal(rep)
	}
}
