package main

// Every file a command writes goes through internal/outfile: a FIFO, a
// device node and a symlink named as --out are written through and stay
// what they were (a rename over them would replace them).

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOutputsWriteThrough(t *testing.T) {
	tr, _ := filepath.Abs("../../testdata/transcripts/forms/projects")
	dir := isolate(t)
	census := func(out string) result {
		return runCLI("census", "--no-register", "--transcripts", tr, "--out", out)
	}

	// A symlink into a published folder: the target gets stops.json.
	pub := filepath.Join(dir, "www", "stops.json")
	os.MkdirAll(filepath.Dir(pub), 0o755)
	link := filepath.Join(dir, "stops.json")
	os.Symlink(pub, link)
	if r := census(link); r.exit != 0 {
		t.Fatalf("census --out symlink: exit %d: %s", r.exit, r.stderr)
	}
	if fi, _ := os.Lstat(link); fi == nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced")
	}
	if b, _ := os.ReadFile(pub); !strings.Contains(string(b), `"schema_version"`) {
		t.Errorf("the link's target holds %q", b)
	}

	// A FIFO: a reader gets the whole of stops.json.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if r := census(fifo); r.exit != 0 {
		t.Fatalf("census --out fifo: exit %d: %s", r.exit, r.stderr)
	}
	select {
	case s := <-got:
		if !strings.Contains(s, `"schema_version"`) {
			t.Errorf("the FIFO's reader got %q", s)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the FIFO's reader got nothing")
	}
	if fi, _ := os.Lstat(fifo); fi == nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced")
	}

	// A device node (a /dev/null of our own, so the test never risks the
	// machine's): it stays a device.
	if os.Geteuid() != 0 {
		t.Log("not root: the device-node case needs mknod and is not run")
		return
	}
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("mknod: %v: the device-node case is not run", err)
		return
	}
	for _, args := range [][]string{
		{"census", "--no-register", "--transcripts", tr, "--out", null, "--html", null},
	} {
		if r := runCLI(args...); r.exit != 0 {
			t.Fatalf("sentinel %s: exit %d: %s", strings.Join(args, " "), r.exit, r.stderr)
		}
	}
	if fi, _ := os.Lstat(null); fi == nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device node was replaced: %v", fi.Mode())
	}
}
