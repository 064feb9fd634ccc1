package protocol

import (
	"math/rand"
	"strconv"
	"testing"
)

// The table answers as a latest-wins map would, for grades added in
// sequence order with refs out of order and regraded.
func TestGradeTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	labels := []string{GradeTrue, GradeFalse, GradeUnclear, "other"}
	var tab gradeTable
	want := map[int64]string{}
	for i := 0; i < 5000; i++ {
		ref := int64(r.Intn(2000))
		l := labels[r.Intn(len(labels))]
		if err := tab.add(ref, l); err != nil {
			t.Fatal(err)
		}
		want[ref] = l
	}
	tab.seal()
	if tab.len() != len(want) {
		t.Fatalf("len %d, want %d", tab.len(), len(want))
	}
	for ref := int64(-1); ref <= 2001; ref++ {
		if got := tab.get(ref); got != want[ref] {
			t.Fatalf("get(%d) = %q, want %q", ref, got, want[ref])
		}
	}
	// Adding after a seal and reading again re-sorts.
	if err := tab.add(5, "late"); err != nil {
		t.Fatal(err)
	}
	if got := tab.get(5); got != "late" {
		t.Fatalf("after a later add, get(5) = %q, want late", got)
	}
}

func TestGradeTableLabelBound(t *testing.T) {
	var tab gradeTable
	for i := 0; i < maxGradeLabels; i++ {
		if err := tab.add(int64(i), strconv.Itoa(i)); err != nil {
			t.Fatalf("label %d: %v", i, err)
		}
	}
	if err := tab.add(1, "one too many"); err == nil {
		t.Fatal("interning past the bound succeeded")
	}
}
