package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// registerDirWritable says whether the first hook call could create the
// register at path, by trying: a file is created and removed in the nearest
// existing directory the hook would create the register under. Permission
// bits alone would not tell (root ignores them; a read-only mount does not).
// An existing register is probed by checkRegisterIntegrity (a real write).
func registerDirWritable(path string) error {
	d := filepath.Dir(path)
	for {
		st, err := os.Stat(d)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			break
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return fmt.Errorf("no directory of %s exists", path)
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".sentinel-doctor-*")
	if err != nil {
		return fmt.Errorf("cannot create files in %s: %v", d, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// unwrapPath drops the path a *PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
