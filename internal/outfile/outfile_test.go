package outfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRegularIsAtomicAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "stops.json")
	if err := WriteFile(p, nil, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("got %q", b)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(p)
	if err := WriteFile(p, nil, []byte("second"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "second" {
		t.Fatalf("got %q", b)
	}
	if after.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", after.Mode().Perm())
	}
	if os.SameFile(before, after) {
		t.Error("a regular file was written in place, not replaced by a rename")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left beside it: %v", ents)
	}
}

func TestAbortLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	os.WriteFile(p, []byte("old"), 0o644)
	o, err := Create(p, nil, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("half"))
	o.Abort()
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("got %q, want the old content", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left beside it: %v", ents)
	}
}

func TestSymlinkIsFollowedAndStaysALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "published", "stops.json")
	os.Mkdir(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "stops.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "later.json")
	os.Symlink(filepath.Join(dir, "published", "later.json"), dangling)
	for _, l := range []string{link, dangling} {
		if err := WriteFile(l, nil, []byte("through"), 0o644); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(l)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symlink: %v %v", l, fi.Mode(), err)
		}
		if b, _ := os.ReadFile(l); string(b) != "through" {
			t.Errorf("%s: target holds %q", l, b)
		}
	}
}

func TestFIFOIsWrittenThrough(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(p)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := WriteFile(p, nil, []byte("piped"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "piped" {
			t.Errorf("reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the reader got nothing")
	}
	if fi, _ := os.Lstat(p); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO became %v", fi.Mode())
	}
}

func TestDeviceIsWrittenThrough(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod needs root: the device-node case is not run as this user")
	}
	p := filepath.Join(t.TempDir(), "null")
	// 1,3 is /dev/null's major and minor number on Linux.
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
		t.Skipf("mknod: %v", err)
	}
	if err := WriteFile(p, nil, []byte("into the void"), 0o644); err != nil {
		if strings.Contains(err.Error(), "permission denied") {
			t.Skipf("the temporary directory is mounted nodev: %v", err)
		}
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("the device node became %v (%v)", fi.Mode(), err)
	}
}

func TestDashIsStdoutAndDirectoryIsAnError(t *testing.T) {
	var b bytes.Buffer
	if err := WriteFile("-", &b, []byte("out"), 0o644); err != nil || b.String() != "out" {
		t.Errorf("- wrote %q, %v", b.String(), err)
	}
	if err := WriteFile(t.TempDir(), nil, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
}
