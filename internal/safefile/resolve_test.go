package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(d, "real/sub"), 0o755))
	must(os.WriteFile(filepath.Join(d, "real/sub/f"), nil, 0o600))
	must(os.Symlink(filepath.Join(d, "real"), filepath.Join(d, "abs")))
	must(os.Symlink("real/sub", filepath.Join(d, "rel")))
	must(os.Symlink("..", filepath.Join(d, "real/sub/up"))) // .. from where the link sits
	must(os.Symlink("f", filepath.Join(d, "real/sub/flink")))
	must(os.Symlink("b", filepath.Join(d, "a")))
	must(os.Symlink("a", filepath.Join(d, "b")))
	cases := []struct {
		in, want string
		follow   bool
		changed  bool
		err      error
	}{
		{d + "/abs/sub/f", d + "/real/sub/f", true, true, nil},
		{d + "/rel/f", d + "/real/sub/f", true, true, nil},
		{d + "/rel/up/sub/f", d + "/real/sub/f", true, true, nil},
		{d + "/rel/flink", d + "/real/sub/f", true, true, nil},
		{d + "/rel/flink", d + "/real/sub/flink", false, true, nil}, // unlink acts on the link
		{d + "/abs/missing/x/y", d + "/real/missing/x/y", true, true, nil},
		{d + "/real/sub/f", d + "/real/sub/f", true, false, nil},
		{d + "/a/x", "", true, true, ErrUnresolved},
	}
	for _, tc := range cases {
		got, changed, err := Resolve(tc.in, tc.follow, nil)
		if !errors.Is(err, tc.err) || (tc.err == nil && (got != tc.want || changed != tc.changed)) {
			t.Errorf("Resolve(%s, %v) = %s, %v, %v; want %s, %v, %v", tc.in, tc.follow, got, changed, err, tc.want, tc.changed, tc.err)
		}
	}
	if _, _, err := Resolve(d+"/abs/sub/f", true, &Budget{Lstats: 2}); !errors.Is(err, ErrUnresolved) {
		t.Errorf("a spent budget: %v, want ErrUnresolved", err)
	}
	if _, _, err := Resolve(d+"/abs/sub/f", true, &Budget{Lstats: 100, Deadline: time.Now().Add(-time.Second)}); !errors.Is(err, ErrUnresolved) {
		t.Errorf("a passed deadline: %v, want ErrUnresolved", err)
	}
	// a FIFO on the way is looked at, not opened
	if err := syscall.Mkfifo(filepath.Join(d, "real/fifo"), 0o600); err == nil {
		must(os.Symlink(filepath.Join(d, "real/fifo"), filepath.Join(d, "fl")))
		if got, _, err := Resolve(d+"/fl", true, nil); err != nil || got != d+"/real/fifo" {
			t.Errorf("link to a FIFO: %s, %v", got, err)
		}
	}
}
