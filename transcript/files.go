package transcript

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// DefaultDir is $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects.
func DefaultDir(home string) string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "projects")
	}
	return filepath.Join(home, ".claude", "projects")
}

// walkCounts are what a walk skipped.
type walkCounts struct {
	links, special, unreadableDirs int64
}

// listFiles lists the regular *.jsonl files under root, sorted. The root
// may be a symlink (the operator named it); links below it are not
// followed. A missing or unreadable root is an error.
func listFiles(root string) ([]string, walkCounts, error) {
	var wc walkCounts
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, wc, err
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, wc, err
	}
	if !st.IsDir() {
		return nil, wc, fmt.Errorf("%s is not a directory", root)
	}
	var files []string
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == real {
				return err
			}
			wc.unreadableDirs++ // an unreadable subdirectory is counted and skipped
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		t := d.Type()
		switch {
		case t&fs.ModeSymlink != 0:
			if strings.HasSuffix(d.Name(), ".jsonl") || isDirLink(p) {
				wc.links++
			}
		case t.IsDir():
		case !strings.HasSuffix(d.Name(), ".jsonl"):
		case t.IsRegular():
			files = append(files, p)
		default:
			wc.special++
		}
		return nil
	})
	sort.Strings(files)
	return files, wc, err
}

func isDirLink(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// errNotRegular: the path was swapped for something else after the walk.
var errNotRegular = errors.New("not a regular file")

// openFile opens a transcript without following a link and without
// blocking on a FIFO, and checks that what was opened is a regular file.
func openFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, errNotRegular
	}
	return f, nil
}

// IsSubagent reports whether p is a subagent's transcript
// (<session>/subagents/agent-<id>.jsonl).
func IsSubagent(p string) bool {
	return filepath.Base(filepath.Dir(p)) == "subagents"
}
