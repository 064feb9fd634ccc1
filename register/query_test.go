package register

import (
	"fmt"
	"testing"
	"time"
)

func TestQuery(t *testing.T) {
	r := openTemp(t)
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 12; i++ {
		e := sample(i)
		e.Time = base.Add(time.Duration(i) * time.Hour)
		e.ToolUseID = "toolu_" + string(rune('a'+i))
		switch i % 4 {
		case 1:
			e.Decision = "deny"
		case 2:
			e.Decision = "ask"
		case 3:
			e.Kind, e.Decision, e.Ref, e.Label = KindOutcome, "", int64(i), "ran"
			e.ToolUseID = "toolu_" + string(rune('a'+i-1))
		}
		if err := r.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	seqs := func(es []*Entry) []int64 {
		var out []int64
		for _, e := range es {
			out = append(out, e.Seq)
		}
		return out
	}
	for name, c := range map[string]struct {
		f    Filter
		want []int64
	}{
		"all newest first": {Filter{Limit: 3}, []int64{12, 11, 10}},
		"deny":             {Filter{Decision: "deny"}, []int64{10, 6, 2}},
		"since":            {Filter{Since: base.Add(9 * time.Hour)}, []int64{12, 11, 10}},
		"until":            {Filter{Until: base.Add(2 * time.Hour)}, []int64{2, 1}},
		"kind":             {Filter{Kind: KindOutcome, Limit: 2}, []int64{12, 8}},
		"ask since":        {Filter{Decision: "ask", Since: base.Add(5 * time.Hour)}, []int64{11, 7}},
		"page":             {Filter{Before: 5, Limit: 2}, []int64{4, 3}},
		"none":             {Filter{Tool: "Write"}, nil},
	} {
		got, err := r.Query(c.f)
		if err != nil {
			t.Fatal(err)
		}
		if g := seqs(got); !equalInts(g, c.want) {
			t.Errorf("%s: got %v, want %v", name, g, c.want)
		}
	}
	got, err := r.FindByToolUseID("toolu_c")
	if err != nil {
		t.Fatal(err)
	}
	if g := seqs(got); !equalInts(g, []int64{3, 4}) || got[1].Label != "ran" {
		t.Errorf("FindByToolUseID = %v", g)
	}
	// Each from the middle, ascending; an error from fn stops it.
	var each []int64
	stop := errStop{}
	err = r.Each(10, func(e *Entry) error {
		each = append(each, e.Seq)
		if e.Seq == 11 {
			return stop
		}
		return nil
	})
	if err != stop || !equalInts(each, []int64{10, 11}) {
		t.Errorf("Each = %v, %v", each, err)
	}
}

type errStop struct{}

func (errStop) Error() string { return "stop" }

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestOddBytes: fields with NUL bytes, colons, digits and non-UTF-8 bytes
// round-trip and verify (the packed read must not be fooled by them).
func TestOddBytes(t *testing.T) {
	r := openTemp(t)
	e := sample(1)
	e.Cwd = "/tmp/a\x00b:12:c\x1fd"
	e.Reason = "3:abc\xff\xfe"
	e.Rules = []string{"x:1", ""}
	e.Input = []byte{0, 1, 2, 0xff}
	if err := r.Append(e); err != nil {
		t.Fatal(err)
	}
	empty := sample(2)
	empty.Input = nil
	if err := r.Append(empty); err != nil {
		t.Fatal(err)
	}
	got, err := r.Get(1)
	if err != nil {
		t.Fatal(err)
	}
	if !entriesEqual(got, e) {
		t.Errorf("odd bytes do not round-trip:\n%+v\n%+v", got, e)
	}
	if g, _ := r.Get(2); g.Input == nil || len(g.Input) != 0 || g.Commitment != Commit(g.Salt, nil) {
		t.Errorf("empty input: %+v", g)
	}
	if rep := r.Verify(); !rep.OK() {
		t.Fatal(rep)
	}
	var streamed []*Entry
	r.Each(1, func(x *Entry) error { c := *x; streamed = append(streamed, &c); return nil })
	if len(streamed) != 2 || !entriesEqual(streamed[0], e) || !entriesEqual(streamed[1], empty) {
		t.Errorf("Each does not read odd bytes back: %+v", streamed)
	}
}

// TestEachAcrossBatches: streaming crosses batch boundaries in order and
// stops cleanly in the middle.
func TestEachAcrossBatches(t *testing.T) {
	r := openTemp(t)
	if err := BulkLoad(r, 3*streamBatch+17, sample); err != nil {
		t.Fatal(err)
	}
	for _, stopAt := range []int64{1, streamBatch, streamBatch + 1, 2*streamBatch + 5, -1} {
		var last int64
		err := r.Each(1, func(e *Entry) error {
			if e.Seq != last+1 {
				return fmt.Errorf("entry %d after %d", e.Seq, last)
			}
			last = e.Seq
			if e.Seq == stopAt {
				return errStop{}
			}
			return nil
		})
		if stopAt > 0 && (err != (errStop{}) || last != stopAt) {
			t.Errorf("stop at %d: last %d, %v", stopAt, last, err)
		}
		if stopAt < 0 && (err != nil || last != 3*streamBatch+17) {
			t.Errorf("full walk: last %d, %v", last, err)
		}
	}
	if rep := r.Verify(); !rep.OK() {
		t.Fatal(rep)
	}
}
