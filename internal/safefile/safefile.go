// Package safefile opens and reads files that the agent can replace, without
// letting the file decide how long the read takes or how much it returns.
//
// The agent runs as the operator's user, so any file the hook reads (the
// configuration, the project's .sentinel.toml, the journal) may have been
// swapped for a FIFO (open and read block for ever), a device (/dev/zero
// never ends), a directory, or a symlink to anything. Every open here:
//   - uses O_NONBLOCK (opening a FIFO returns at once instead of waiting for
//     a writer), O_NOFOLLOW on the last component and O_CLOEXEC;
//   - fstats the descriptor it got (not the name, which can change) and
//     refuses anything that is not a regular file;
//   - follows a symlink only when it stays in its own directory: the target
//     is a plain name beside the link (config.toml -> config.v2.toml), at
//     most a few hops; any other target is refused;
//   - reads at most limit+1 bytes, so a file over the limit is refused
//     without reading it whole.
//
// A refusal is a *RefusedError naming the file and why (errors.Is(err,
// ErrRefused)); a missing file is the usual fs.ErrNotExist.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrRefused is matched (errors.Is) by every *RefusedError.
var ErrRefused = errors.New("refused")

// maxHops bounds how many in-directory symlinks are followed.
const maxHops = 8

// RefusedError says which file was refused and why.
type RefusedError struct {
	Path string // the name asked for
	Why  string // "is a FIFO (named pipe)", "is over the 1 MiB limit", ...
}

func (e *RefusedError) Error() string { return e.Path + ": refused: " + e.Why }

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// Open opens path read-only under the rules above.
func Open(path string) (*os.File, error) {
	return OpenFile(path, os.O_RDONLY, 0)
}

// OpenFile is os.OpenFile under the rules above (O_NONBLOCK, O_NOFOLLOW and
// O_CLOEXEC added; a regular file only; symlinks only within their
// directory). With O_CREATE a missing file is created as usual. O_NONBLOCK
// stays set on the descriptor; it has no effect on a regular file.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	name, err := resolve(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0 {
			err = nil // create it (name is where a dangling in-directory link points)
		} else {
			return nil, err
		}
	}
	f, err := os.OpenFile(name, flag|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, perm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			// The name became a symlink between resolve and open.
			return nil, &RefusedError{path, "is a symlink that changed while it was opened"}
		}
		if errors.Is(err, syscall.ENXIO) {
			// A FIFO opened for writing with no reader.
			return nil, &RefusedError{path, "is a FIFO (named pipe), not a regular file"}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if why := NotRegular(fi.Mode()); why != "" {
		f.Close()
		return nil, &RefusedError{path, why}
	}
	return f, nil
}

// ReadFile reads the whole of path, refusing it when it is over limit
// bytes (or not a regular file, or a symlink that leaves its directory).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, limit)
}

// ReadAll reads f to its end, at most limit+1 bytes: more than limit is a
// refusal naming path. The size from fstat is checked first, so a file
// known to be too large is not read at all.
func ReadAll(f *os.File, path string, limit int64) ([]byte, error) {
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, &RefusedError{path, fmt.Sprintf("is %d bytes, over the %s limit", fi.Size(), size(limit))}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &RefusedError{path, "is over the " + size(limit) + " limit"}
	}
	return b, nil
}

// resolve follows path's last component while it is a symlink to a plain
// name in the same directory, and returns the name to open with
// O_NOFOLLOW. The directories on the way are the operator's to arrange and
// are followed as usual.
func resolve(path string) (string, error) {
	name := path
	for hop := 0; ; hop++ {
		fi, err := os.Lstat(name)
		if err != nil {
			return name, err // a missing name: OpenFile creates it with O_CREATE
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		if hop == maxHops {
			return "", &RefusedError{path, fmt.Sprintf("is a chain of more than %d symlinks", maxHops)}
		}
		target, err := os.Readlink(name)
		if err != nil {
			return "", err
		}
		if strings.Contains(target, "/") || target == "." || target == ".." || target == "" {
			return "", &RefusedError{path, fmt.Sprintf("is a symlink to %q, which leaves its directory", target)}
		}
		name = filepath.Join(filepath.Dir(name), target)
	}
}

// NotRegular says why a file of mode m is refused ("" for a regular file):
// for callers that check a mode before opening (a device is never opened).
func NotRegular(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeNamedPipe != 0:
		return "is a FIFO (named pipe), not a regular file"
	case m&fs.ModeCharDevice != 0:
		return "is a character device, not a regular file"
	case m&fs.ModeDevice != 0:
		return "is a block device, not a regular file"
	case m.IsDir():
		return "is a directory, not a regular file"
	case m&fs.ModeSocket != 0:
		return "is a socket, not a regular file"
	default:
		return "is not a regular file (" + m.Type().String() + ")"
	}
}

func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d-byte", n)
	}
}
