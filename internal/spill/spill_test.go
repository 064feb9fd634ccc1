package spill

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

var u32 = Codec[uint32]{
	Enc: func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) },
	Dec: func(b []byte) uint32 { return binary.LittleEndian.Uint32(b) },
}

func key(i int) [16]byte {
	var k [16]byte
	binary.LittleEndian.PutUint64(k[:], uint64(i)*0x9e3779b97f4a7c15)
	return k
}

// TestMapAgainstMap: random puts, overwrites, deletes and lookups give the
// same answers as a Go map, in memory and after the spill, and the
// temporary file is in TMPDIR while open and gone after Close.
func TestMapAgainstMap(t *testing.T) {
	for _, cap := range []int64{1 << 20, 1, 37} {
		tmp := t.TempDir()
		t.Setenv("SQLITE_TMPDIR", tmp)
		m := New[[16]byte](u32)
		m.cap = cap
		want := map[[16]byte]uint32{}
		rng := rand.New(rand.NewPCG(7, uint64(cap)))
		for range 5000 {
			k := key(rng.IntN(800))
			switch rng.IntN(4) {
			case 0, 1:
				v := rng.Uint32()
				m.Put(k, v)
				want[k] = v
			case 2:
				m.Delete(k)
				delete(want, k)
			case 3:
				v, ok := m.Get(k)
				w, wok := want[k]
				if ok != wok || v != w {
					t.Fatalf("cap %d: Get = %d, %v; want %d, %v", cap, v, ok, w, wok)
				}
			}
		}
		if err := m.Err(); err != nil {
			t.Fatal(err)
		}
		if m.Spilled() != (cap < 800) {
			t.Errorf("cap %d: spilled %v", cap, m.Spilled())
		}
		if m.Len() != int64(len(want)) {
			t.Errorf("cap %d: Len %d, want %d", cap, m.Len(), len(want))
		}
		seen := 0
		err := m.Each(func(k [16]byte, v uint32) error {
			seen++
			if w, ok := want[k]; !ok || w != v {
				t.Errorf("cap %d: Each gave %x=%d, want %d (%v)", cap, k, v, w, ok)
			}
			return nil
		})
		if err != nil || seen != len(want) {
			t.Errorf("cap %d: Each saw %d of %d: %v", cap, seen, len(want), err)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		left, _ := filepath.Glob(filepath.Join(tmp, "*"))
		if len(left) != 0 {
			t.Errorf("cap %d: left behind %v", cap, left)
		}
	}
}

// TestMapErrorSticks: a map whose temporary directory cannot be written
// reports the error and answers absent, never a stale value.
func TestMapErrorSticks(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	t.Setenv("SQLITE_TMPDIR", "/proc/self") // not writable
	t.Setenv("TMPDIR", "/proc/self")
	m := New[[16]byte](u32)
	m.cap = 1
	m.Put(key(1), 1)
	m.Put(key(2), 2)
	m.Put(key(3), 3)
	_, ok := m.Get(key(1))
	if m.Err() == nil {
		t.Skip("this SQLite found another temporary directory")
	}
	if ok {
		t.Error("a failed map still answers")
	}
	m.Close()
}

func BenchmarkSpilledPutGet(b *testing.B) {
	m := New[[16]byte](u32)
	m.cap = 1
	defer m.Close()
	for i := 0; b.Loop(); i++ {
		m.Put(key(i), uint32(i))
		m.Get(key(i / 2))
	}
	if m.Err() != nil {
		b.Fatal(m.Err())
	}
}
