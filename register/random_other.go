//go:build !linux

package register

import "crypto/rand"

// readRandom fills b from crypto/rand.
func readRandom(b []byte) error {
	_, err := rand.Read(b)
	return err
}
