package register

import (
	"bytes"
	"testing"
)

// TestReadRandom: salts are filled completely and differ between draws
// (a short read or a fixed buffer would let equal inputs be linked).
func TestReadRandom(t *testing.T) {
	a, b := make([]byte, 32), make([]byte, 32)
	if err := readRandom(a); err != nil {
		t.Fatal(err)
	}
	if err := readRandom(b); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) || bytes.Equal(a, make([]byte, 32)) {
		t.Fatalf("two draws: %x and %x", a, b)
	}
	big := make([]byte, 1<<20) // several getrandom calls may be needed
	if err := readRandom(big); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(big[len(big)-64:], make([]byte, 64)) {
		t.Fatal("the end of a large buffer was not filled")
	}
}
