package register

import (
	"crypto/rand"

	"golang.org/x/sys/unix"
)

// readRandom fills b from the kernel's random source with getrandom(2)
// (the source crypto/rand uses too). The first crypto/rand.Read of a
// process sets up vDSO state and a timer, about 0.1 ms; the hook draws one
// 32-byte salt per process, so that setup was a visible part of each call.
// Any failure falls back to crypto/rand.
func readRandom(b []byte) error {
	for len(b) > 0 {
		n, err := unix.Getrandom(b, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			_, err := rand.Read(b)
			return err
		}
		b = b[n:]
	}
	return nil
}
