package register

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The attacker's scripts of issue 13, played against the register: the
// agent runs as the operator's user and can delete, empty, roll back or
// replace any file in the state directory. Each test asserts that the next
// append refuses with ErrVanished (the hook answers fail-closed) instead
// of starting afresh, that verify says so, that the operator's reset
// records the loss, and that nothing journaled meanwhile is lost.

// filled is a closed register with n entries in dir, as a hook leaves it.
func filled(t *testing.T, n int) (path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "state", "register.db")
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, r, n)
	r.Close()
	return path
}

// wantVanished asserts that appending, opening read-only, Continuity and
// Verify all report the register as vanished with msg in the message.
func wantVanished(t *testing.T, path, msg string) {
	t.Helper()
	r, err := Open(path)
	if err == nil {
		err = r.Append(sample(99))
		if rep := r.Verify(); err != nil && rep.OK() {
			t.Errorf("verify OK on a vanished register")
		}
		r.Close()
	}
	if !errors.Is(err, ErrVanished) || !strings.Contains(err.Error(), msg) {
		t.Fatalf("append = %v\nwant ErrVanished with %q", err, msg)
	}
	t.Logf("append: %v", err)
	if err := Continuity(path); !errors.Is(err, ErrVanished) {
		t.Errorf("Continuity = %v", err)
	}
	if ro, err := OpenReadOnly(path); err == nil {
		rep := ro.Verify()
		ro.Close()
		if rep.OK() || (rep.Problem.Kind != ProblemVanished && rep.Problem.Kind != ProblemSequence) {
			t.Errorf("verify = %v", rep)
		}
	} else if !errors.Is(err, ErrVanished) {
		t.Errorf("OpenReadOnly = %v", err)
	}
}

// resetAndCheck journals one decision while the register is vanished,
// resets, and checks the new register: the journaled decision is merged,
// the reset entry names the lost register, verify holds.
func resetAndCheck(t *testing.T, path string, lostID string) {
	t.Helper()
	pending := sample(42)
	pending.ToolUseID = "toolu_while_vanished"
	if err := JournalWhy(filepath.Dir(path), pending, errors.New("register vanished")); err != nil {
		t.Fatal(err)
	}
	e, err := Reset(path, "test")
	if err != nil {
		t.Fatal(err)
	}
	if e.Label != LabelReset || !strings.Contains(e.Reason, "lost register "+lostID) {
		t.Errorf("reset entry %+v", e)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Append(sample(1)); err != nil {
		t.Fatalf("append after reset: %v", err)
	}
	got, _ := r.FindByToolUseID("toolu_while_vanished")
	if len(got) != 1 {
		t.Errorf("the decision journaled while vanished: %d entries", len(got))
	}
	if rep := r.Verify(); !rep.OK() || rep.Journaled != 1 {
		t.Errorf("verify after reset: %v (journaled %d)", rep, rep.Journaled)
	}
	if err := Continuity(path); err != nil {
		t.Errorf("Continuity after reset: %v", err)
	}
	if ms, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.lost-*")); strings.Contains(e.Reason, "moved aside") != (len(ms) > 0) {
		t.Errorf("moved aside: %v, reason %q", ms, e.Reason)
	}
}

func anchorID(t *testing.T, path string) string {
	a, err := ReadAnchor(filepath.Dir(path))
	if err != nil || a == nil {
		t.Fatalf("anchor: %v %v", a, err)
	}
	return a.ID
}

func removeDB(path string) {
	for _, s := range []string{"", "-wal", "-shm"} {
		os.Remove(path + s)
	}
}

func TestAttackDeleteRegister(t *testing.T) {
	path := filled(t, 5)
	id := anchorID(t, path)
	removeDB(path)
	wantVanished(t, path, "the register is gone")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a vanished register was created afresh: %v", err)
	}
	resetAndCheck(t, path, id)
}

func TestAttackEmptyRegister(t *testing.T) {
	path := filled(t, 5)
	id := anchorID(t, path)
	removeDB(path)
	os.WriteFile(path, nil, 0o600)
	wantVanished(t, path, "the register file is empty")
	resetAndCheck(t, path, id)
}

// TestAttackDeleteWAL: the newest entries live in the write-ahead log
// until a checkpoint; deleting it loses them. The checkpoint bounds how
// many (at most a few appends' worth) and the anchor reports the loss.
func TestAttackDeleteWAL(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "register.db")
	// As hooks do: one process per append, none closes the register (a
	// Close would checkpoint everything and hide the loss).
	for i := 0; ; i++ {
		if err := childCmd(t, "once", path, "wal").Run(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > walTrimBytes+64<<10 {
			t.Fatalf("WAL %d bytes after %d appends; the checkpoint should bound it near %d", fi.Size(), i+1, walTrimBytes)
		}
		if i >= 12 && fi.Size() > 0 {
			break
		}
	}
	a, _ := ReadAnchor(filepath.Dir(path))
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := ro.Count()
	ro.Close()
	if n < a.Seq-3 || n >= a.Seq {
		t.Errorf("%d of %d entries in the main file: want the loss bounded by the checkpoint (at most 3) and non-zero here", n, a.Seq)
	}
	t.Logf("%d of %d entries survived deleting the WAL", n, a.Seq)
	wantVanished(t, path, "rolled back or truncated")
	resetAndCheck(t, path, a.ID)
}

func TestAttackRollBack(t *testing.T) {
	path := filled(t, 3)
	old, _ := os.ReadFile(path)
	r, _ := Open(path)
	appendN(t, r, 3)
	r.Close()
	id := anchorID(t, path)
	removeDB(path)
	os.WriteFile(path, old, 0o600)
	wantVanished(t, path, "ends at entry 3 but entry 6 was written")
	resetAndCheck(t, path, id)
}

func TestAttackReplaceRegister(t *testing.T) {
	path := filled(t, 3)
	other := filled(t, 7)
	b, _ := os.ReadFile(other)
	removeDB(path)
	os.WriteFile(path, b, 0o600)
	wantVanished(t, path, "the register was replaced")
}

// TestAttackGarbageAnchor: an anchor that is not one (a FIFO, junk) fails
// closed too; it does not silently switch the check off.
func TestAttackGarbageAnchor(t *testing.T) {
	path := filled(t, 2)
	a := filepath.Join(filepath.Dir(path), AnchorFile)
	os.Remove(a)
	if err := syscall.Mkfifo(a, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		r, err := Open(path)
		if err == nil {
			err = r.Append(sample(1))
			r.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrVanished) || !strings.Contains(err.Error(), "FIFO") {
			t.Fatalf("append with a FIFO anchor = %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("append blocked on a FIFO anchor")
	}
}

// TestAttackSymlinkJournal: a journal symlinked to another file is never
// read: its content does not reach the register; an error entry says what
// was refused and the link is moved aside.
func TestAttackSymlinkJournal(t *testing.T) {
	r := openTemp(t)
	appendN(t, r, 1)
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	os.WriteFile(secret, []byte(`{"entry":{"kind":"decision","salt":"AAAA","input":"c2VjcmV0"}}`+"\nPRIVATE KEY\n"), 0o600)
	j := filepath.Join(r.Dir(), JournalFile)
	if err := os.Symlink(secret, j); err != nil {
		t.Fatal(err)
	}
	if err := Journal(r.Dir(), sample(3)); !errors.Is(err, ErrRefused) {
		t.Errorf("Journal through a symlink = %v", err)
	}
	if err := r.Append(sample(2)); err != nil {
		t.Fatal(err)
	}
	n, _ := r.Count()
	if n != 3 {
		t.Fatalf("%d entries, want 3 (1, the refusal, 2)", n)
	}
	e, _ := r.Get(2)
	if e.Kind != KindError || !strings.Contains(e.Reason, "symlink") || len(e.Input) != 0 {
		t.Errorf("refusal entry %+v", e)
	}
	r.Each(1, func(e *Entry) error {
		if strings.Contains(string(e.Input), "PRIVATE") || strings.Contains(e.Reason, "PRIVATE") {
			t.Errorf("entry %d holds the symlinked file's content", e.Seq)
		}
		return nil
	})
	if _, err := os.Lstat(j); !os.IsNotExist(err) {
		t.Errorf("the symlink is still the journal: %v", err)
	}
	if ms, _ := filepath.Glob(j + refusedSuffix + "*"); len(ms) != 1 {
		t.Errorf("moved aside: %v", ms)
	}
}

// TestAttackFIFOJournal: a FIFO as the journal blocks nothing: Append,
// Journal and PendingJournal return at once, and the FIFO is refused.
func TestAttackFIFOJournal(t *testing.T) {
	r := openTemp(t)
	appendN(t, r, 1)
	j := filepath.Join(r.Dir(), JournalFile)
	if err := syscall.Mkfifo(j, 0o600); err != nil {
		t.Fatal(err)
	}
	within(t, time.Second, "PendingJournal", func() {
		if _, err := PendingJournal(r.Dir()); !errors.Is(err, ErrRefused) {
			t.Errorf("PendingJournal = %v", err)
		}
	})
	within(t, time.Second, "Journal", func() {
		if err := Journal(r.Dir(), sample(1)); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("Journal into a FIFO = %v", err)
		}
	})
	within(t, time.Second, "Append", func() {
		if err := r.Append(sample(2)); err != nil {
			t.Error(err)
		}
	})
	if e, _ := r.Get(2); e == nil || !strings.Contains(e.Reason, "FIFO") {
		t.Errorf("entry 2 = %+v", e)
	}
	if rep := r.Verify(); !rep.OK() {
		t.Fatal(rep)
	}
}

func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); fn() }()
	select {
	case <-done:
		t.Logf("%s returned in %v", what, time.Since(start).Round(time.Millisecond))
	case <-time.After(d):
		t.Fatalf("%s still blocked after %v", what, d)
	}
}

// TestAttackHeldJournalLock: `flock journal.lock sleep 1d &`. Writing the
// journal gives up within JournalLockWait with ErrLocked (the hook then
// fails closed); appends go on and merge the pending lines regardless
// (the lock is needed only to remove a merged journal), nothing twice.
func TestAttackHeldJournalLock(t *testing.T) {
	r := openTemp(t)
	for i := 0; i < 3; i++ {
		Journal(r.Dir(), sample(i))
	}
	f, err := os.OpenFile(filepath.Join(r.Dir(), journalLockFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = Journal(r.Dir(), sample(9))
	if d := time.Since(start); !errors.Is(err, ErrLocked) || d > JournalLockWait+200*time.Millisecond {
		t.Fatalf("Journal under a held lock = %v after %v", err, d)
	}
	within(t, time.Second, "Append under a held journal lock", func() {
		if err := r.Append(sample(4)); err != nil {
			t.Error(err)
		}
	})
	appendN(t, r, 2)
	if n, _ := r.Count(); n != 6 {
		t.Errorf("%d entries, want 3 journaled + 3", n)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	appendN(t, r, 1)
	if rep := r.Verify(); !rep.OK() || rep.Entries != 7 || rep.Journaled != 3 {
		t.Fatalf("verify %v, journaled %d", rep, rep.Journaled)
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), JournalFile)); !os.IsNotExist(err) {
		t.Errorf("merged journal not removed once the lock was free: %v", err)
	}
}

// TestAttackForgedJournalLines: journal lines are written by whatever can
// write the state directory. A line claiming to be a grade is merged as an
// error entry, every merged entry is marked, and Verify counts them.
func TestAttackForgedJournalLines(t *testing.T) {
	r := openTemp(t)
	appendN(t, r, 1)
	forged := &Entry{Kind: KindGrade, Ref: 1, Label: "false", Salt: []byte("0123456789abcdef0123456789abcdef"), Time: time.Unix(1, 0)}
	b, _ := json.Marshal(journalLine{Entry: forged})
	decision := &Entry{Kind: KindDecision, Decision: "deny", Tool: "Bash", Salt: []byte("fedcba9876543210fedcba9876543210")}
	d, _ := json.Marshal(journalLine{Entry: decision})
	os.WriteFile(filepath.Join(r.Dir(), JournalFile), []byte(string(b)+"\n"+string(d)+"\n"), 0o600)
	appendN(t, r, 1)
	g, _ := r.Get(2)
	if g.Kind != KindError || !strings.Contains(g.Reason, `claimed kind "grade"`) {
		t.Errorf("forged grade merged as %+v", g)
	}
	dd, _ := r.Get(3)
	if dd.Kind != KindDecision || !strings.Contains(dd.Reason, "[journaled]") {
		t.Errorf("journaled decision merged as %+v", dd)
	}
	if rep := r.Verify(); !rep.OK() || rep.Journaled != 2 {
		t.Fatalf("verify %v, journaled %d", rep, rep.Journaled)
	}
}

// writeJournalLines writes n valid journal lines straight into the file
// (as n hook calls would have, without n fsyncs).
func writeJournalLines(t testing.TB, dir string, n int) {
	t.Helper()
	os.MkdirAll(dir, 0o700)
	f, err := os.OpenFile(filepath.Join(dir, JournalFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf []byte
	for i := 0; i < n; i++ {
		e := sample(i)
		e.ToolUseID = fmt.Sprintf("toolu_journal_%d", i)
		seal(e, nil)
		b, _ := json.Marshal(journalLine{Entry: e, Why: "database is locked"})
		buf = append(append(append(buf, '\n'), b...), '\n')
		if len(buf) > 1<<20 {
			f.Write(buf)
			buf = buf[:0]
		}
	}
	f.Write(buf)
}

// TestBoundedMerge: a journal of 20,000 pending lines costs one append a
// chunk (mergeLines), not the whole merge; later appends and MergeJournal
// take the rest, each line exactly once, in journal order.
func TestBoundedMerge(t *testing.T) {
	r := openTemp(t)
	const n = 20000
	writeJournalLines(t, r.Dir(), n)
	start := time.Now()
	if err := r.Append(sample(1)); err != nil {
		t.Fatal(err)
	}
	first := time.Since(start)
	if c, _ := r.Count(); c != mergeLines+1 {
		t.Fatalf("first append: %d entries, want %d", c, mergeLines+1)
	}
	t.Logf("first append with %d pending lines: %v", n, first)
	if first > time.Second {
		t.Errorf("one append took %v with a long journal", first)
	}
	appendN(t, r, 2)
	merged, err := r.MergeJournal()
	if err != nil || merged != n-3*mergeLines {
		t.Fatalf("MergeJournal = %d, %v; want %d", merged, err, n-3*mergeLines)
	}
	if p, _ := PendingJournal(r.Dir()); p != 0 {
		t.Errorf("%d lines still pending", p)
	}
	rep := r.Verify()
	if !rep.OK() || rep.Entries != n+3 || rep.Journaled != n {
		t.Fatalf("verify %v, journaled %d", rep, rep.Journaled)
	}
	// Journal order is kept across chunks.
	last := -1
	r.Each(1, func(e *Entry) error {
		var i int
		if _, err := fmt.Sscanf(e.ToolUseID, "toolu_journal_%d", &i); err == nil {
			if i != last+1 {
				t.Fatalf("journal line %d merged after %d", i, last)
			}
			last = i
		}
		return nil
	})
}

// TestMergeResumesOnlyItsOwnFile: the merge position is tied to the file;
// a journal written anew after a part-merged one was replaced is read from
// its start (the ledger still skips lines merged before).
func TestMergeResumesOnlyItsOwnFile(t *testing.T) {
	r := openTemp(t)
	writeJournalLines(t, r.Dir(), mergeLines+10)
	appendN(t, r, 1) // merges mergeLines, the position points into the file
	j := filepath.Join(r.Dir(), JournalFile)
	os.Remove(j)
	for i := 0; i < 3; i++ {
		Journal(r.Dir(), sample(i))
	}
	appendN(t, r, 1)
	if c, _ := r.Count(); c != int64(mergeLines+1+3+1) {
		t.Fatalf("%d entries, want %d: the new journal's lines were skipped", c, mergeLines+5)
	}
}

// TestStoppedAppender: an appender stopped with SIGSTOP at random moments
// (holding the register's write lock, or the journal lock, or nothing)
// never makes another call wait past its bound: Append gives up with
// ErrLocked after the busy timeout and Journal after JournalLockWait.
// Once it resumes, nothing is lost and the chain holds.
func TestStoppedAppender(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	path := filepath.Join(t.TempDir(), "register.db")
	r, err := OpenWith(path, Options{BusyTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := childCmd(t, "loop", path, "stopped")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	time.Sleep(100 * time.Millisecond)
	const bound = 300*time.Millisecond + JournalLockWait + 400*time.Millisecond
	journaled := 0
	for round := 0; round < 12; round++ {
		time.Sleep(time.Duration(round%4) * 7 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGSTOP)
		start := time.Now()
		e := sample(round)
		e.ToolUseID = fmt.Sprintf("parent-%d", round)
		err := r.Append(e)
		if errors.Is(err, ErrLocked) {
			if jerr := JournalWhy(r.Dir(), e, err); jerr == nil {
				journaled++
			} else if !errors.Is(jerr, ErrLocked) {
				t.Errorf("round %d: journal: %v", round, jerr)
			}
		} else if err != nil {
			t.Errorf("round %d: %v", round, err)
		}
		if d := time.Since(start); d > bound {
			t.Errorf("round %d: a call waited %v for a stopped appender (bound %v)", round, d, bound)
		}
		cmd.Process.Signal(syscall.SIGCONT)
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := r.MergeJournal(); err != nil {
		t.Fatal(err)
	}
	if rep := r.Verify(); !rep.OK() {
		t.Fatal(rep)
	}
	t.Logf("%d of 12 calls journaled while the other appender was stopped", journaled)
}

// TestVerifyWhileAppending: verify reads the chain, SQLite's sequence
// counter and the anchor in one read transaction, so appends racing it
// never make it cry "truncated" (before: 13 of 30 runs).
func TestVerifyWhileAppending(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "register.db")
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	BulkLoad(r, 5000, sample)
	r.Close()
	var cmds []*os.Process
	for p := 0; p < 3; p++ {
		cmd := childCmd(t, "loop", path, fmt.Sprintf("v%d", p))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd.Process)
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
	}
	time.Sleep(50 * time.Millisecond)
	for run := 0; run < 30; run++ {
		ro, err := OpenReadOnly(path)
		if err != nil {
			t.Fatal(err)
		}
		rep := ro.Verify()
		ro.Close()
		if !rep.OK() {
			t.Fatalf("run %d: verify while appending: %v", run, rep)
		}
	}
	for _, p := range cmds {
		p.Kill()
	}
	ro, _ := OpenReadOnly(path)
	defer ro.Close()
	n, _ := ro.Count()
	if n <= 5000 {
		t.Errorf("the appenders appended nothing (%d entries): the test raced nothing", n)
	}
	t.Logf("%d entries appended while 30 verifies ran", n-5000)
}

// TestSmallDisk: a 200 KiB file system. The write-ahead log is folded
// into the database every few appends, so the register keeps going until
// the database file itself fills the disk (before: it stopped after 5
// entries for good, each append growing the WAL by ~25 KB). When it is
// full, the error says so, the chain is intact, and freeing space lets it
// resume.
func TestSmallDisk(t *testing.T) {
	dir, _ := mountTmpfs(t, "200k")
	filler := filepath.Join(dir, "filler")
	os.WriteFile(filler, make([]byte, 64<<10), 0o600)
	r, err := Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	var appendErr error
	for ; n < 1000; n++ {
		if appendErr = r.Append(sample(n)); appendErr != nil {
			break
		}
	}
	t.Logf("%d entries on a 200 KiB file system (64 KiB taken by a filler), then: %v", n, appendErr)
	for _, s := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(r.path + s); err == nil {
			t.Logf("register.db%s: %d bytes", s, fi.Size())
		}
	}
	// 57 entries before schema v4; its index's root page takes one 4 KiB
	// page of the 136 KiB left (49 now).
	if n < 45 {
		t.Fatalf("the register stopped after %d entries: %v", n, appendErr)
	}
	if appendErr != nil && !errors.Is(appendErr, ErrDiskFull) {
		t.Fatalf("error on the full disk = %v", appendErr)
	}
	if rep := r.Verify(); !rep.OK() || rep.Entries != int64(n) {
		t.Fatalf("verify on the full disk: %v", rep)
	}
	os.Remove(filler)
	for i := 0; i < 10; i++ {
		if err := r.Append(sample(i)); err != nil {
			t.Fatalf("append %d after freeing space: %v", i, err)
		}
	}
	if rep := r.Verify(); !rep.OK() {
		t.Fatal(rep)
	}
}

// TestProbe: doctor's probe is a real, bounded write: a read-only file
// system, a full disk and a held write lock all fail it, each with its
// class, within the wait.
func TestProbe(t *testing.T) {
	dir, remount := mountTmpfs(t, "400k")
	path := filepath.Join(dir, "register.db")
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, r, 3)
	r.Close()
	if err := Probe(path, 200*time.Millisecond); err != nil {
		t.Fatalf("probe on a healthy register: %v", err)
	}
	if n, _ := func() (int64, error) { ro, _ := OpenReadOnly(path); defer ro.Close(); return ro.Count() }(); n != 3 {
		t.Errorf("the probe wrote an entry: %d entries", n)
	}
	// A held write lock: bounded, ErrLocked.
	hold, _ := Open(path)
	conn, _ := hold.db.Conn(bg)
	conn.ExecContext(bg, `BEGIN IMMEDIATE`)
	start := time.Now()
	if err := Probe(path, 200*time.Millisecond); !errors.Is(err, ErrLocked) || time.Since(start) > 2*time.Second {
		t.Errorf("probe under a held lock = %v after %v", err, time.Since(start))
	}
	conn.ExecContext(bg, `ROLLBACK`)
	conn.Close()
	hold.Close()
	// A full disk.
	f, _ := os.Create(filepath.Join(dir, "filler"))
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	f.Close()
	if err := Probe(path, 200*time.Millisecond); !errors.Is(err, ErrDiskFull) {
		t.Errorf("probe on a full disk = %v", err)
	}
	os.Remove(filepath.Join(dir, "filler"))
	// A read-only file system.
	remount("remount,ro")
	if err := Probe(path, 200*time.Millisecond); !errors.Is(err, ErrReadOnly) {
		t.Errorf("probe on a read-only file system = %v", err)
	}
}

// TestJournalPending: lines a part-way merge has taken are not pending.
func TestJournalPending(t *testing.T) {
	r := openTemp(t)
	writeJournalLines(t, r.Dir(), mergeLines+7)
	appendN(t, r, 1)
	if n, err := r.JournalPending(); err != nil || n != 7 {
		t.Errorf("JournalPending = %d, %v; want 7", n, err)
	}
	if n, err := PendingJournal(r.Dir()); err != nil || n != mergeLines+7 {
		t.Errorf("PendingJournal = %d, %v; want the file's %d lines", n, err, mergeLines+7)
	}
}
