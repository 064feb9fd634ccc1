package seal_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/seal"
)

// FuzzParseCheckpoint: hostile checkpoint text never panics, and whatever
// parses re-marshals to the very same bytes (one text per checkpoint).
func FuzzParseCheckpoint(f *testing.F) {
	cp := &seal.Checkpoint{RegisterID: "r", Size: 3, Root: make([]byte, 32), Head: "ab", Prev: seal.NoPrev,
		Time: time.Unix(1795000000, 0)}
	f.Add(cp.Marshal())
	f.Add([]byte("sentinel register checkpoint v1\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := seal.ParseCheckpoint(data)
		if err != nil {
			return
		}
		if !bytes.Equal(c.Marshal(), data) {
			t.Fatalf("parsed %q but marshals to %q", data, c.Marshal())
		}
	})
}
