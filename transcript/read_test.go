package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const line = `{"type":"assistant","timestamp":"2026-11-01T00:00:00Z","message":{"content":[{"type":"tool_use","id":"ID","name":"Bash","input":{"command":"ls"}}]}}` + "\n"

func call(id string) string { return strings.Replace(line, "ID", id, 1) }

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readCalls reads dirs and returns the distinct calls seen and the sources.
func readCalls(t *testing.T, dirs ...string) (map[Key]bool, *Sources) {
	t.Helper()
	calls := map[Key]bool{}
	src, err := Read(dirs, Options{}, Handler{Call: func(_ string, c *Call) {
		if !c.Dup {
			calls[c.Key] = true
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return calls, src
}

// TestFilePolicy is the one behaviour both commands share: symlinks below
// a root are not followed (counted), FIFOs are never opened (counted), an
// unreadable file or directory is counted and skipped, and a root that is
// itself a symlink is followed once.
func TestFilePolicy(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "projects", "-p")
	write(t, filepath.Join(proj, "a.jsonl"), call("toolu_a"))
	write(t, filepath.Join(proj, "s", "subagents", "agent-1.jsonl"), call("toolu_sub"))
	outside := filepath.Join(root, "outside")
	write(t, filepath.Join(outside, "x.jsonl"), call("toolu_outside"))
	// A linked file and a linked directory: neither is followed.
	if err := os.Symlink(filepath.Join(outside, "x.jsonl"), filepath.Join(proj, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(proj, "linkdir")); err != nil {
		t.Fatal(err)
	}
	// A FIFO named like a transcript: opening it would block forever.
	if err := syscall.Mkfifo(filepath.Join(proj, "fifo.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An unreadable file and directory (root reads everything: skip those checks).
	unreadable := os.Geteuid() != 0
	write(t, filepath.Join(proj, "locked.jsonl"), call("toolu_locked"))
	write(t, filepath.Join(proj, "lockeddir", "b.jsonl"), call("toolu_lockeddir"))
	if unreadable {
		os.Chmod(filepath.Join(proj, "locked.jsonl"), 0)
		os.Chmod(filepath.Join(proj, "lockeddir"), 0)
		t.Cleanup(func() { os.Chmod(filepath.Join(proj, "lockeddir"), 0o755) })
	}
	done := make(chan struct{})
	var calls map[Key]bool
	var src *Sources
	go func() {
		defer close(done)
		calls, src = readCalls(t, filepath.Join(root, "projects"))
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Read blocked (on the FIFO?)")
	}
	if !calls[KeyOf("toolu_a")] || !calls[KeyOf("toolu_sub")] || calls[KeyOf("toolu_outside")] {
		t.Errorf("calls %v", calls)
	}
	if src.SkippedLinks != 2 || src.SkippedSpecial != 1 || src.SubagentFiles != 1 {
		t.Errorf("sources %+v", src)
	}
	if unreadable {
		if src.UnreadableFiles != 2 || src.Files != 2 || calls[KeyOf("toolu_locked")] {
			t.Errorf("unreadable: %+v", src)
		}
	}
	// The root itself may be a link (the operator named it).
	ln := filepath.Join(root, "rootlink")
	if err := os.Symlink(outside, ln); err != nil {
		t.Fatal(err)
	}
	calls, _ = readCalls(t, ln)
	if !calls[KeyOf("toolu_outside")] {
		t.Error("a root that is a symlink must be followed")
	}
	// A missing root is an error; the caller decides what it means.
	if _, err := Read([]string{filepath.Join(root, "nope")}, Options{}, Handler{}); err == nil {
		t.Error("a missing root must be an error")
	}
}

// TestLongLine: a line over MaxLine is counted (oversized, unreadable) and
// skipped without being kept; the next line still counts.
func TestLongLine(t *testing.T) {
	dir := t.TempDir()
	big := `{"type":"user","message":{"content":"` + strings.Repeat("x", MaxLine+10) + "\"}}\n"
	write(t, filepath.Join(dir, "big.jsonl"), big+call("toolu_after"))
	calls, src := readCalls(t, dir)
	if src.OversizedLines != 1 || src.UnreadableLines != 1 || !calls[KeyOf("toolu_after")] || src.Records != 1 {
		t.Errorf("%+v", src)
	}
	// Exactly MaxLine is read.
	k := MaxLine - (len(call("toolu_edge")) - 1) + 2
	edge := strings.Replace(call("toolu_edge"), `"ls"`, `"`+strings.Repeat("y", k)+`"`, 1)
	write(t, filepath.Join(dir, "big.jsonl"), edge)
	if n := len(strings.TrimRight(edge, "\n")); n != MaxLine {
		t.Fatalf("edge line is %d bytes", n)
	}
	calls, src = readCalls(t, dir)
	if src.OversizedLines != 0 || !calls[KeyOf("toolu_edge")] {
		t.Errorf("a line of exactly MaxLine must be read: %+v", src)
	}
}

// TestVanishedFile: a file that cannot be opened when its turn comes (gone,
// or swapped for a FIFO after the walk) is counted unreadable and skipped;
// the others count. Runs as root too, where permissions do not stop reads.
func TestVanishedFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	write(t, good, call("toolu_good"))
	fifo := filepath.Join(dir, "swapped.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	calls := map[Key]bool{}
	r := &reader{h: Handler{Call: func(_ string, c *Call) { calls[c.Key] = true }}, calls: NewSeen()}
	if err := r.scanFiles([]string{filepath.Join(dir, "gone.jsonl"), fifo, good}); err != nil {
		t.Fatal(err)
	}
	if r.src.UnreadableFiles != 2 || r.src.Files != 1 || !calls[KeyOf("toolu_good")] {
		t.Errorf("%+v %v", r.src, calls)
	}
}
