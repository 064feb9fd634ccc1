package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrUnresolved is returned by Resolve for a path the kernel could not
// follow either (a loop, more than MaxLinkHops links) or that the budget
// did not allow to follow to its end.
var ErrUnresolved = errors.New("unresolved")

// MaxLinkHops is Linux's limit on the symlinks followed in one lookup
// (MAXSYMLINKS): past it the kernel answers ELOOP.
const MaxLinkHops = 40

// Budget bounds the work of a series of Resolve calls (one decision):
// at most Lstats calls to lstat and readlink, and none after Deadline.
// The zero Budget allows nothing; a nil *Budget is unbounded.
type Budget struct {
	Lstats   int
	Deadline time.Time
}

func (b *Budget) spend() bool {
	if b == nil {
		return true
	}
	if b.Lstats <= 0 || (!b.Deadline.IsZero() && time.Now().After(b.Deadline)) {
		return false
	}
	b.Lstats--
	return true
}

// Resolve follows the symlinks in the absolute, clean path p as the kernel
// would on a lookup, and returns the path with none left: each component
// is lstat'ed in turn (nothing is opened, so a FIFO or a device on the way
// costs no more than a file), a symlink's target is spliced in (an
// absolute one restarts from /), ".." after a link climbs from where the
// link led. The last component is followed only when followLast is true
// (a write or read follows it; unlink and rename act on the link itself).
//
// The part from the first component that does not exist (or cannot be
// looked at) is kept as written: that is where a write would create it.
// changed reports whether a symlink was met. A loop, more than MaxLinkHops
// links, or a spent budget is ErrUnresolved with the path as far as it
// was followed.
func Resolve(p string, followLast bool, b *Budget) (resolved string, changed bool, err error) {
	if !strings.HasPrefix(p, "/") {
		return p, false, errors.New("not an absolute path: " + p)
	}
	rest := splitPath(p)
	done := "/"
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done)
			continue
		}
		next := filepath.Join(done, c)
		if len(rest) == 0 && !followLast {
			return next, changed, nil
		}
		if !b.spend() {
			return joinRest(next, rest), changed, ErrUnresolved
		}
		fi, lerr := os.Lstat(next)
		if lerr != nil {
			// missing (or not to be looked at): the rest stays as written
			return joinRest(next, rest), changed, nil
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		hops++
		if hops > MaxLinkHops || !b.spend() {
			return joinRest(next, rest), changed, ErrUnresolved
		}
		target, rerr := os.Readlink(next)
		if rerr != nil || target == "" {
			return joinRest(next, rest), changed, nil
		}
		changed = true
		if strings.HasPrefix(target, "/") {
			done = "/"
		}
		rest = append(splitPath(target), rest...)
	}
	return done, changed, nil
}

func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

func joinRest(p string, rest []string) string {
	if len(rest) == 0 {
		return p
	}
	return filepath.Clean(p + "/" + strings.Join(rest, "/"))
}
