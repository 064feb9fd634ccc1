// Package outfile writes a file the operator named the way cp and tee do,
// so that an output path is written, never replaced.
//
//   - "-" is standard output.
//   - A regular file, or a name that does not exist yet, is written
//     atomically: a temporary file beside it, then a rename, so that a reader
//     (a web server publishing stops.json) never sees half a file. An
//     existing file keeps its permission bits, never wider than perm (a
//     bundle asked for 0600 stays 0600 over a file that was 0644).
//   - Anything else is opened and written in place, as tee would: a
//     character or block device (/dev/null, /dev/stdout), a FIFO (the call
//     waits for a reader, as tee does), a socket's /proc/self/fd name, and
//     the target of a symlink (the link is followed and stays a link, even
//     when it points at a regular file or at nothing yet).
//
// A rename is never made over anything but a regular file, so --out
// /dev/null as root leaves /dev/null a device. A directory is an error.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File is an output being written. Write to it, then Commit; Abort (safe
// after Commit) drops an unfinished temporary file.
type File struct {
	w      io.Writer
	f      *os.File // nil for stdout
	tmp    string   // the temporary name when the write is atomic
	path   string
	n      int64
	closed bool
}

// Create starts writing path. stdout is what "-" writes to. perm is the
// mode of a file that does not exist yet (an existing one keeps its own,
// masked by perm).
func Create(path string, stdout io.Writer, perm fs.FileMode) (*File, error) {
	if path == "-" {
		return &File{w: stdout, path: path}, nil
	}
	if path == "" {
		return nil, errors.New("no output path")
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createTemp(path, perm)
	case err != nil:
		return nil, err
	case fi.Mode().IsRegular():
		return createTemp(path, fi.Mode().Perm()&perm)
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory", path)
	}
	// A device, a FIFO, a socket or a symlink: written through, in place.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return nil, err
	}
	return &File{w: f, f: f, path: path}, nil
}

func createTemp(path string, perm fs.FileMode) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &File{w: f, f: f, tmp: f.Name(), path: path}, nil
}

// Write writes to the output.
func (o *File) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	o.n += int64(n)
	return n, err
}

// Written is how many bytes were written: what a stat of a device or a
// FIFO cannot say.
func (o *File) Written() int64 { return o.n }

// Commit finishes the output: closes it and, for an atomic write, renames
// the temporary file over the path.
func (o *File) Commit() error {
	if o.closed {
		return errors.New(o.path + ": already committed")
	}
	o.closed = true
	if o.f == nil {
		return nil
	}
	if o.tmp == "" {
		return o.f.Close()
	}
	// Synced before the rename, so that a crash leaves the old file or the
	// new one, never an empty name.
	err := o.f.Sync()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.tmp, o.path)
	}
	if err != nil {
		os.Remove(o.tmp)
	}
	return err
}

// Abort drops an output that was not committed: the temporary file is
// removed; a file written in place keeps what was written.
func (o *File) Abort() {
	if o.closed {
		return
	}
	o.closed = true
	if o.f != nil {
		o.f.Close()
	}
	if o.tmp != "" {
		os.Remove(o.tmp)
	}
}

// WriteFile writes data to path as Create, Write and Commit would.
func WriteFile(path string, stdout io.Writer, data []byte, perm fs.FileMode) error {
	o, err := Create(path, stdout, perm)
	if err != nil {
		return err
	}
	if _, err := o.Write(data); err != nil {
		o.Abort()
		return err
	}
	return o.Commit()
}
