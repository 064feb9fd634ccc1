package register

import (
	"strings"
	"testing"
)

func TestVerifyAfter(t *testing.T) {
	r := openTemp(t)
	for i := 0; i < 5; i++ {
		if err := r.Append(sample(i)); err != nil {
			t.Fatal(err)
		}
	}
	full := r.Verify()
	e3, _ := r.Get(3)
	if rep := r.VerifyAfter(3, e3.Hash); !rep.OK() || rep.Entries != full.Entries || rep.Head != full.Head {
		t.Fatalf("VerifyAfter(3) = %v, want %v", rep, full)
	}
	// A later entry edited: found. The checkpointed entry edited: found.
	if _, err := r.DB().Exec(`DROP TRIGGER entries_no_update; UPDATE entries SET reason = 'edited' WHERE seq = 5`); err != nil {
		t.Fatal(err)
	}
	if rep := r.VerifyAfter(3, e3.Hash); rep.OK() || rep.Problem.Seq != 5 {
		t.Errorf("an edit after the checkpoint: %v", rep)
	}
	if rep := r.VerifyAfter(3, strings.Repeat("0", 64)); rep.OK() || !strings.Contains(rep.Problem.Msg, "changed since it was verified") {
		t.Errorf("a changed checkpoint entry: %v", rep)
	}
}

func TestQueryEachIsQuery(t *testing.T) {
	r := openTemp(t)
	for i := 0; i < 7; i++ {
		e := sample(i)
		if i%2 == 0 {
			e.Decision = "deny"
		}
		if err := r.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	f := Filter{Decision: "deny", Limit: 3}
	want, err := r.Query(f)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	if err := r.QueryEach(f, func(e *Entry) error { got = append(got, e.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("QueryEach %v, Query %d entries", got, len(want))
	}
	for i := range want {
		if got[i] != want[i].Seq {
			t.Errorf("QueryEach %v, Query %v", got, want[i].Seq)
		}
	}
}
