package protocol

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// gradeTable is the latest grade of each graded entry, held as two sorted
// arrays (10 bytes a grade) instead of a map (about 48): replay keeps it
// for the whole pass, and at 10M entries a map of 190k grades was most of
// its heap (issue 22: peak RSS under 64 MiB). Labels are interned; the
// grade command writes three, a bundle may hold others.
type gradeTable struct {
	refs   []int64
	labels []uint16
	names  []string
	index  map[string]uint16
	sealed bool
}

// maxGradeLabels bounds the distinct labels a table can intern.
const maxGradeLabels = 1 << 16

// add records a grade; grades must be added in sequence order, so that the
// last one added for a ref is its latest.
func (t *gradeTable) add(ref int64, label string) error {
	if t.index == nil {
		t.index = map[string]uint16{}
	}
	i, ok := t.index[label]
	if !ok {
		if len(t.names) == maxGradeLabels {
			return fmt.Errorf("more than %d distinct grade labels: not a register the grade command wrote", maxGradeLabels)
		}
		i = uint16(len(t.names))
		label = strings.Clone(label) // a streamed row's string shares the row's memory
		t.names = append(t.names, label)
		t.index[label] = i
	}
	t.refs = append(t.refs, ref)
	t.labels = append(t.labels, i)
	t.sealed = false
	return nil
}

// seal sorts by ref and keeps the latest grade of each.
func (t *gradeTable) seal() {
	sort.Stable(byRef{t})
	n := 0
	for i := range t.refs {
		if n > 0 && t.refs[n-1] == t.refs[i] {
			t.labels[n-1] = t.labels[i] // later in sequence: latest wins
			continue
		}
		t.refs[n], t.labels[n] = t.refs[i], t.labels[i]
		n++
	}
	t.refs, t.labels = slices.Clone(t.refs[:n]), slices.Clone(t.labels[:n]) // free append's slack
	t.sealed = true
}

// get is the latest grade of ref, "" when it has none.
func (t *gradeTable) get(ref int64) string {
	if !t.sealed {
		t.seal()
	}
	i := sort.Search(len(t.refs), func(i int) bool { return t.refs[i] >= ref })
	if i < len(t.refs) && t.refs[i] == ref {
		return t.names[t.labels[i]]
	}
	return ""
}

func (t *gradeTable) len() int { return len(t.refs) }

type byRef struct{ t *gradeTable }

func (b byRef) Len() int           { return len(b.t.refs) }
func (b byRef) Less(i, j int) bool { return b.t.refs[i] < b.t.refs[j] }
func (b byRef) Swap(i, j int) {
	b.t.refs[i], b.t.refs[j] = b.t.refs[j], b.t.refs[i]
	b.t.labels[i], b.t.labels[j] = b.t.labels[j], b.t.labels[i]
}
