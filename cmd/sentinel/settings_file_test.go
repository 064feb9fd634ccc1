package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadSettingsSpecialFiles: install, uninstall and doctor read Claude
// Code's settings files, which the agent can replace. A FIFO there must not
// block them, a directory or device is refused with its name, a symlink to
// a regular file is followed (a dotfiles manager's), and a missing file is
// an empty object.
func TestReadSettingsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "dotfiles", "settings.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(`{"model":"x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		path, wantErr string
		exists        bool
	}{
		{fifo, "is a FIFO", true},
		{dir, "is a directory", true},
		{"/dev/null", "is a character device", true},
		{link, "", true},
		{filepath.Join(dir, "missing.json"), "", false},
	} {
		done := make(chan struct{})
		var (
			exists bool
			err    error
		)
		go func() {
			defer close(done)
			_, exists, err = readSettings(c.path)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("readSettings(%s) blocked", c.path)
		}
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("readSettings(%s): %v", c.path, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("readSettings(%s) = %v, want an error saying %q", c.path, err, c.wantErr)
		case c.wantErr == "" && exists != c.exists:
			t.Errorf("readSettings(%s): exists %v, want %v", c.path, exists, c.exists)
		}
	}
}
