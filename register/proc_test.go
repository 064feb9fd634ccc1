package register

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The multi-process tests re-execute this test binary as child processes:
// with REGISTER_TEST_CHILD set, TestMain appends instead of running tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("REGISTER_TEST_CHILD"); mode != "" {
		os.Exit(child(mode, os.Getenv("REGISTER_TEST_PATH"), os.Getenv("REGISTER_TEST_NAME")))
	}
	code := m.Run()
	for _, p := range benchRegs { // registers built for benchmarks
		os.RemoveAll(filepath.Dir(p))
	}
	os.Exit(code)
}

// child appends entries named "<name>-<i>". Mode "append:N" appends N and
// journals every 10th instead (merged by a later append); "loop" appends
// until killed.
func child(mode, path, name string) int {
	if mode == "once" || mode == "once-close" {
		// As the hook does: open, append, exit (without Close unless asked);
		// prints the microseconds that took.
		t0 := time.Now()
		r, err := Open(path)
		if err == nil {
			err = r.Append(sample(1))
		}
		if err == nil && mode == "once-close" {
			err = r.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(time.Since(t0).Microseconds())
		return 0
	}
	n := -1
	if len(mode) > 7 && mode[:7] == "append:" {
		n, _ = strconv.Atoi(mode[7:])
	}
	for i := 0; n < 0 || i < n; i++ {
		// One Open per call, as the hook does.
		r, err := Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		e := sample(i)
		e.ToolUseID = fmt.Sprintf("%s-%d", name, i)
		if n > 0 && i%10 == 9 {
			err = Journal(r.Dir(), e)
		} else if err = r.Append(e); errors.Is(err, ErrLocked) {
			// As the hook does: a register busy past the timeout (a loaded
			// machine, 16 writers) sends the call to the journal.
			err = JournalWhy(r.Dir(), e, err)
		}
		r.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	return 0
}

func childCmd(t *testing.T, mode, path, name string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "REGISTER_TEST_CHILD="+mode, "REGISTER_TEST_PATH="+path, "REGISTER_TEST_NAME="+name)
	cmd.Stderr = os.Stderr
	return cmd
}

// TestConcurrentProcesses: 16 processes x 100 calls at once (10 of each
// journaled rather than appended) -> exactly 1,600 entries, each once, each
// process's entries in its own order, one linear chain.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 16 processes")
	}
	path := filepath.Join(t.TempDir(), "register.db")
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const procs, calls = 16, 100
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = childCmd(t, "append:"+strconv.Itoa(calls), path, fmt.Sprintf("p%02d", p)).Run()
		}()
	}
	wg.Wait()
	for p, err := range errs {
		if err != nil {
			t.Fatalf("process %d: %v", p, err)
		}
	}
	if _, err := r.MergeJournal(); err != nil { // the last journaled lines
		t.Fatal(err)
	}
	checkAll(t, r, procs, calls)
}

// TestConcurrentGoroutines: the same within one process (one Register
// shared by goroutines, plus a second Register on the same file).
func TestConcurrentGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "register.db")
	r1, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	const workers, calls = 16, 50
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := r1
			if w%2 == 1 {
				r = r2
			}
			for i := 0; i < calls; i++ {
				e := sample(i)
				e.ToolUseID = fmt.Sprintf("p%02d-%d", w, i)
				if err := r.Append(e); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	checkAll(t, r1, workers, calls)
}

// checkAll asserts the register holds exactly procs*calls entries named
// p<NN>-<i>, each once, each writer's in its own order, and verifies.
func checkAll(t *testing.T, r *Register, procs, calls int) {
	t.Helper()
	rep := r.Verify()
	if !rep.OK() || rep.Entries != int64(procs*calls) {
		seen := map[string]bool{}
		r.Each(1, func(e *Entry) error { seen[e.ToolUseID] = true; return nil })
		for p := 0; p < procs; p++ {
			for i := 0; i < calls; i++ {
				if id := fmt.Sprintf("p%02d-%d", p, i); !seen[id] {
					b, _ := os.ReadFile(filepath.Join(r.Dir(), JournalFile))
					var pos string
					r.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, journalPosKey).Scan(&pos)
					t.Logf("missing %s; journal %d bytes, holds it: %v; pos %s", id, len(b), strings.Contains(string(b), id), pos)
				}
			}
		}
		t.Fatalf("verify: %v (want %d entries)", rep, procs*calls)
	}
	seen := map[string]bool{}
	last := map[string]int{}
	err := r.Each(1, func(e *Entry) error {
		if seen[e.ToolUseID] {
			return fmt.Errorf("entry %d: %s registered twice", e.Seq, e.ToolUseID)
		}
		seen[e.ToolUseID] = true
		var p, i int
		if _, err := fmt.Sscanf(e.ToolUseID, "p%d-%d", &p, &i); err != nil {
			return fmt.Errorf("entry %d: unexpected tool_use_id %q", e.Seq, e.ToolUseID)
		}
		k := strconv.Itoa(p)
		if prev, ok := last[k]; ok && i <= prev {
			return fmt.Errorf("entry %d: %s after call %d of the same writer", e.Seq, e.ToolUseID, prev)
		}
		last[k] = i
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != procs*calls {
		t.Fatalf("%d distinct calls, want %d", len(seen), procs*calls)
	}
}

// TestKillMidAppend: processes appending in a loop are killed (SIGKILL) at
// random moments, over and over; the register must verify, every entry be
// whole, and SQLite's own integrity check pass.
func TestKillMidAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for a few seconds")
	}
	path := filepath.Join(t.TempDir(), "register.db")
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const kills = 40
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < kills; k++ {
		cmds := make([]*exec.Cmd, 2)
		for i := range cmds {
			cmds[i] = childCmd(t, "loop", path, fmt.Sprintf("k%02d%d", k, i))
			cmds[i].Stderr = nil
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Duration(20+rng.IntN(60)) * time.Millisecond)
		for _, c := range cmds {
			c.Process.Signal(syscall.SIGKILL)
			c.Wait()
		}
	}
	rep := r.Verify()
	if !rep.OK() {
		t.Fatalf("after %d kills: %v", kills, rep)
	}
	seq, _, _ := r.Head()
	n, _ := r.Count()
	if n != seq || n == 0 {
		t.Fatalf("count %d, head %d", n, seq)
	}
	var ic string
	if err := r.DB().QueryRow(`PRAGMA integrity_check`).Scan(&ic); err != nil || ic != "ok" {
		t.Fatalf("integrity_check: %q %v", ic, err)
	}
	err = r.Each(1, func(e *Entry) error {
		if e.Kind != KindDecision || len(e.Salt) != 32 || e.ToolUseID == "" || e.CatalogHash == "" {
			return fmt.Errorf("entry %d is partial: %+v", e.Seq, e)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d kills, %d entries survived, verify clean", kills*2, n)
}

// TestWALStaysShortWithoutClose: processes that append once and exit
// without Close (the hook) must not let the write-ahead log grow with every
// call (see trimWAL); without the trim it grew by ~27 KB per call.
func TestWALStaysShortWithoutClose(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 60 processes")
	}
	path := filepath.Join(t.TempDir(), "register.db")
	const calls = 60
	var maxWAL int64
	for i := 0; i < calls; i++ {
		if err := childCmd(t, "once", path, "w").Run(); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > maxWAL {
			maxWAL = fi.Size()
		}
	}
	if maxWAL > 2*walTrimBytes {
		t.Errorf("WAL reached %d bytes after %d calls without Close; want at most %d", maxWAL, calls, 2*walTrimBytes)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if rep := r.Verify(); !rep.OK() || rep.Entries != calls {
		t.Fatalf("verify: %v", rep)
	}
}
