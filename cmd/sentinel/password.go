package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// passwordEnv holds the signing key's password for sealing without a
// terminal (cosign's convention is COSIGN_PASSWORD; sentinel reads its own
// name so that one key's password is not handed to the other tool by
// accident). An agent that runs as the same user with the same environment
// can read it too: docs/threat-model.md.
const passwordEnv = "SENTINEL_PASSWORD"

// keyPassword returns the password: $SENTINEL_PASSWORD if set, else a
// prompt on the terminal (twice when confirm). Without either it fails
// with what to do.
func keyPassword(stderr io.Writer, confirm bool) ([]byte, error) {
	if p, ok := os.LookupEnv(passwordEnv); ok {
		if p == "" {
			return nil, fmt.Errorf("%s is set but empty", passwordEnv)
		}
		return []byte(p), nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil || !term.IsTerminal(int(tty.Fd())) {
		if tty != nil {
			tty.Close()
		}
		return nil, fmt.Errorf("the signing key's password is needed: set %s or run at a terminal", passwordEnv)
	}
	defer tty.Close()
	fmt.Fprint(tty, "Password for the signing key: ")
	p, err := term.ReadPassword(int(tty.Fd()))
	fmt.Fprintln(tty)
	if err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return nil, errors.New("empty password")
	}
	if confirm {
		fmt.Fprint(tty, "Again: ")
		q, err := term.ReadPassword(int(tty.Fd()))
		fmt.Fprintln(tty)
		if err != nil {
			return nil, err
		}
		if string(p) != string(q) {
			return nil, errors.New("the passwords differ")
		}
	}
	return p, nil
}
