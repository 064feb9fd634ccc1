package register

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Classes of failure a caller (the hook) may want to tell apart with
// errors.Is. The *Error that carries them says precisely what happened.
var (
	ErrLocked       = errors.New("database is locked")
	ErrReadOnly     = errors.New("read-only")
	ErrDiskFull     = errors.New("disk full")
	ErrNotRegister  = errors.New("not a sentinel register")
	ErrSchemaTooNew = errors.New("register schema is newer than this sentinel")
	ErrCorrupt      = errors.New("database is corrupt")
	ErrNotExist     = errors.New("register does not exist")
	// ErrVanished: the register this machine had is gone, empty, replaced,
	// rolled back or rewritten (see AnchorFile). The hook answers every
	// call fail-closed until the operator runs sentinel register reset.
	ErrVanished = errors.New("register vanished")
	// ErrRefused: a file beside the register (the fallback journal, its
	// lock) is not a plain regular file (a FIFO, a symlink, a device).
	ErrRefused = errors.New("refused file")
	// ErrDescriptors: the process ran out of file descriptors
	// (RLIMIT_NOFILE, or the system's table): nothing is wrong with the
	// register, and nothing must be reset.
	ErrDescriptors = errors.New("out of file descriptors")
)

// Error is a register failure: which file, what class, and the detail.
type Error struct {
	Path   string
	Class  error // one of the Err* values above, or nil
	Detail string
	Cause  error
}

func (e *Error) Error() string { return "register " + e.Path + ": " + e.Detail }

// Is reports whether target is the class of e.
func (e *Error) Is(target error) bool { return e.Class != nil && target == e.Class }

func (e *Error) Unwrap() error { return e.Cause }

// classify turns a low-level error into an *Error with a message an
// operator can act on. It probes the directory when SQLite's own code is
// not precise enough (a read-only file system and a full disk both surface
// as generic I/O errors in some paths).
func classify(path string, busy time.Duration, err error) error {
	if err == nil {
		return nil
	}
	var re *Error
	if errors.As(err, &re) {
		return err
	}
	e := &Error{Path: path, Cause: err, Detail: err.Error()}
	var se sqlite3.Error
	if errors.As(err, &se) {
		if se.SystemErrno == syscall.EMFILE || se.SystemErrno == syscall.ENFILE {
			return descriptors(path, se.SystemErrno)
		}
		switch se.Code {
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			e.Class = ErrLocked
			e.Detail = fmt.Sprintf("database is locked (another process holds it for more than %s)", busy)
			return e
		case sqlite3.ErrFull:
			e.Class = ErrDiskFull
			e.Detail = "disk full: " + se.Error()
			return e
		case sqlite3.ErrNotADB:
			e.Class = ErrNotRegister
			e.Detail = "not a sentinel register (not a SQLite database)"
			return e
		case sqlite3.ErrCorrupt:
			e.Class = ErrCorrupt
			e.Detail = "database is corrupt: " + se.Error()
			return e
		case sqlite3.ErrReadonly, sqlite3.ErrCantOpen, sqlite3.ErrIoErr, sqlite3.ErrPerm, sqlite3.ErrAuth:
			if probed := probeDir(path); probed != nil {
				probed.Cause = err
				return probed
			}
			if se.Code == sqlite3.ErrReadonly {
				e.Class = ErrReadOnly
				e.Detail = "read-only: " + se.Error()
			}
			return e
		}
	}
	if p := errnoClass(path, err); p != nil {
		return p
	}
	return e
}

// errnoClass maps an OS error (from our own file handling) to a class.
func errnoClass(path string, err error) *Error {
	switch {
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return descriptors(path, err)
	case errors.Is(err, syscall.EROFS):
		return &Error{Path: path, Class: ErrReadOnly, Detail: "read-only file system", Cause: err}
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return &Error{Path: path, Class: ErrDiskFull, Detail: "disk full", Cause: err}
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return &Error{Path: path, Class: ErrReadOnly, Detail: "permission denied: " + err.Error(), Cause: err}
	}
	return nil
}

// writeScratch writes n bytes to a temporary file in dir, fsyncs and
// removes it: the errno of a failure says why dir cannot be written.
func writeScratch(dir string, n int) error {
	f, err := os.CreateTemp(dir, ".sentinel-probe-*")
	if err != nil {
		return err
	}
	_, err = f.Write(make([]byte, n))
	if err == nil {
		err = f.Sync()
	}
	f.Close()
	os.Remove(f.Name())
	return err
}

// probeDir finds out why the register cannot be written: it tries to create
// (and removes) a small file beside the register, which fails with the
// precise errno (EROFS, ENOSPC, EACCES).
func probeDir(path string) *Error {
	dir := filepath.Dir(path)
	if err := writeScratch(dir, 4096); err != nil {
		if p := errnoClass(path, err); p != nil {
			if p.Class == ErrReadOnly && p.Detail != "read-only file system" {
				p.Detail = "cannot write in " + dir + " (permission denied); the register needs its directory writable for its write-ahead log"
			}
			return p
		}
		return nil
	}
	// The directory is writable: the file itself must be read-only.
	const wOK = 2
	switch err := syscall.Access(path, wOK); {
	case errors.Is(err, syscall.EROFS):
		return &Error{Path: path, Class: ErrReadOnly, Detail: "read-only file system (the register file is on a read-only mount)", Cause: err}
	case err != nil:
		mode := ""
		if fi, serr := os.Stat(path); serr == nil {
			mode = fmt.Sprintf(" (mode %04o)", fi.Mode().Perm())
		}
		return &Error{Path: path, Class: ErrReadOnly, Detail: "the register file is not writable" + mode + ": " + err.Error(), Cause: err}
	}
	return nil
}

// descriptors is the ErrDescriptors error: it names the limit, so that the
// operator raises it rather than resetting an intact register.
func descriptors(path string, cause error) *Error {
	limit := "unknown"
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) == nil {
		limit = strconv.FormatUint(rl.Cur, 10)
	}
	return &Error{Path: path, Class: ErrDescriptors, Cause: cause,
		Detail: "out of file descriptors (" + cause.Error() + "; this process's limit, ulimit -n, is " + limit +
			"): the register itself is not known to be damaged; raise the limit (ulimit -n 1024) and do not reset it"}
}

// IsDescriptors reports an error that is the process running out of file
// descriptors, whether or not it came through classify.
func IsDescriptors(err error) bool {
	return errors.Is(err, ErrDescriptors) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}
