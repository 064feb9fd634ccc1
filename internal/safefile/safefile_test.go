package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	j := func(n string) string { return filepath.Join(dir, n) }
	if err := os.WriteFile(j("plain"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j("big"), make([]byte, 101), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(j("fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(j("dir"), 0o700)
	os.Symlink("plain", j("beside"))                  // stays in the directory
	os.Symlink("beside", j("twice"))                  // two hops, both beside
	os.Symlink("/dev/zero", j("zero"))                // leaves it
	os.Symlink("../x/plain", j("away"))               // leaves it
	os.Symlink("fifo", j("tofifo"))                   // beside, but a FIFO
	os.Symlink("loop", j("loop"))                     // a loop
	os.Symlink(filepath.Join(dir, "plain"), j("abs")) // absolute, even to the same directory

	ok := map[string]string{"plain": "hello", "beside": "hello", "twice": "hello"}
	for n, want := range ok {
		b, err := ReadFile(j(n), 100)
		if err != nil || string(b) != want {
			t.Errorf("%s: got %q, %v; want %q", n, b, err, want)
		}
	}
	refused := map[string]string{
		"big":    "over the 100-byte limit",
		"fifo":   "FIFO",
		"dir":    "directory",
		"zero":   "leaves its directory",
		"away":   "leaves its directory",
		"tofifo": "FIFO",
		"loop":   "chain of more than",
		"abs":    "leaves its directory",
	}
	for n, why := range refused {
		start := time.Now()
		b, err := ReadFile(j(n), 100)
		if time.Since(start) > time.Second {
			t.Errorf("%s: took %v", n, time.Since(start))
		}
		var re *RefusedError
		if !errors.As(err, &re) || !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), why) || b != nil {
			t.Errorf("%s: got %q, %v; want a refusal saying %q", n, b, err, why)
			continue
		}
		if re.Path != j(n) {
			t.Errorf("%s: refusal names %q", n, re.Path)
		}
	}
	if _, err := ReadFile(j("missing"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want fs.ErrNotExist", err)
	}
}

// A device does not say its size: the read itself must stop at limit+1.
func TestReadAllDevice(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if _, err := ReadAll(f, "/dev/zero", 1<<20); !errors.Is(err, ErrRefused) {
		t.Fatalf("got %v, want a refusal", err)
	}
	if _, err := ReadFile("/dev/zero", 1<<20); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("ReadFile(/dev/zero): %v", err)
	}
}

func TestOpenFileWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "journal")
	f, err := OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("x\n")
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// No reader: opening for writing would block without O_NONBLOCK.
	if _, err := OpenFile(fifo, os.O_WRONLY|os.O_APPEND, 0o600); !errors.Is(err, ErrRefused) {
		t.Fatalf("FIFO for writing: %v, want a refusal", err)
	}
	if _, err := OpenFile(fifo, os.O_RDWR, 0o600); !errors.Is(err, ErrRefused) {
		t.Fatalf("FIFO read-write: %v, want a refusal", err)
	}
}
