// Package paths resolves where sentinel keeps its state and configuration.
//
// State (the register, its fallback journal): $SENTINEL_HOME, else
// $XDG_STATE_HOME/sentinel, else ~/.local/state/sentinel.
// Configuration (rules, signing key): $XDG_CONFIG_HOME/sentinel, else
// ~/.config/sentinel.
package paths

import (
	"errors"
	"os"
	"path/filepath"
)

// Home is the user's home directory ("" when it cannot be found).
func Home() string { return HomeFrom(os.Getenv) }

// HomeFrom is Home for the environment getenv reads.
func HomeFrom(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// StateDir is the directory that holds the register.
func StateDir() (string, error) { return StateDirFrom(os.Getenv) }

// StateDirFrom is StateDir for the environment getenv reads.
func StateDirFrom(getenv func(string) string) (string, error) {
	if d := getenv("SENTINEL_HOME"); d != "" {
		return filepath.Abs(d)
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sentinel"), nil
	}
	h := HomeFrom(getenv)
	if h == "" {
		return "", errors.New("cannot find the state directory: set SENTINEL_HOME or HOME")
	}
	return filepath.Join(h, ".local", "state", "sentinel"), nil
}

// RegisterPath is the register database file.
func RegisterPath() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "register.db"), nil
}

// ConfigDir is the operator's configuration directory.
func ConfigDir() (string, error) { return ConfigDirFrom(os.Getenv) }

// ConfigDirFrom is ConfigDir for the environment getenv reads.
func ConfigDirFrom(getenv func(string) string) (string, error) {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sentinel"), nil
	}
	h := HomeFrom(getenv)
	if h == "" {
		return "", errors.New("cannot find the config directory: set XDG_CONFIG_HOME or HOME")
	}
	return filepath.Join(h, ".config", "sentinel"), nil
}

// KeyPath is the operator's default signing key (ECDSA P-256, PEM);
// the public key is beside it with the suffix ".pub".
func KeyPath() (string, error) {
	d, err := ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "signing.key"), nil
}
