package register

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// The register's own side files (the journal, its lock, the anchor) sit in
// a directory the agent can write. Each is opened without following a
// symlink at all (a symlinked journal would copy another file's content
// into the register), without blocking (a FIFO opens at once), and refused
// unless the descriptor is a regular file. internal/safefile does the same
// for configuration files but lets a symlink point beside itself; these
// files are sentinel's own and are never symlinks.

// errUnsafe is a side file that is not a plain regular file.
type errUnsafe struct {
	path, why string
}

func (e *errUnsafe) Error() string { return e.path + ": refused: " + e.why }

// openPlain opens path with flag (O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC added)
// and refuses anything but a regular file.
func openPlain(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, perm)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, &errUnsafe{path, "is a symlink (" + linkTarget(path) + "); sentinel's own files are never symlinks"}
	case errors.Is(err, syscall.ENXIO):
		return nil, &errUnsafe{path, "is a FIFO (named pipe), not a regular file"}
	case err != nil:
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &errUnsafe{path, "is " + modeName(fi.Mode()) + ", not a regular file"}
	}
	return f, nil
}

func linkTarget(path string) string {
	t, err := os.Readlink(path)
	if err != nil {
		return "unreadable target"
	}
	return "to " + t
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return fmt.Sprintf("a special file (%s)", m.Type())
}

// flockWithin takes a flock (how: LOCK_EX or LOCK_SH) on f, polling with
// LOCK_NB until wait has passed: a blocking flock would let a process that
// holds the lock (stopped, or `flock journal.lock sleep 1d`) hold every
// caller with it.
func flockWithin(f *os.File, how int, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	pause := 500 * time.Microsecond
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return syscall.EWOULDBLOCK
		}
		time.Sleep(min(pause, left))
		pause = min(2*pause, 10*time.Millisecond)
	}
}
