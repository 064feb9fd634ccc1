package register

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLocked: another connection holds the write lock longer than the busy
// timeout -> a clear ErrLocked; the decision goes to the journal and is
// merged by the next append once the lock is gone.
func TestLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "register.db")
	r, err := OpenWith(path, Options{BusyTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	appendN(t, r, 2)

	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=100")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	e := sample(7)
	start := time.Now()
	err = r.Append(e)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Append under lock = %v", err)
	}
	want := "register " + path + ": database is locked (another process holds it for more than 200ms)"
	if err.Error() != want {
		t.Errorf("message %q\nwant    %q", err, want)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("gave up after %v, before the busy timeout", d)
	}
	if e.Seq != 0 || e.Hash != "" {
		t.Errorf("failed Append filled the entry: %+v", e)
	}
	if err := JournalWhy(r.Dir(), e, err); err != nil {
		t.Fatal(err)
	}
	conn.ExecContext(context.Background(), `ROLLBACK`)
	conn.Close()

	next := sample(8)
	if err := r.Append(next); err != nil {
		t.Fatal(err)
	}
	if next.Seq != 4 {
		t.Errorf("next seq %d, want 4 (after the journaled entry)", next.Seq)
	}
	got, err := r.Get(3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Commitment != e.Commitment || got.ToolUseID != e.ToolUseID || !strings.Contains(got.Reason, "[journaled: register "+path+": database is locked") {
		t.Errorf("journaled entry merged as %+v", got)
	}
	if rep := r.Verify(); !rep.OK() || rep.Entries != 4 {
		t.Fatalf("verify: %v", rep)
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), JournalFile)); !os.IsNotExist(err) {
		t.Errorf("journal still there after merge: %v", err)
	}
}

func TestNotARegister(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte(strings.Repeat("these are not the bytes you are looking for\n", 100)), 0o600)
	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite3", other)
	db.Exec(`CREATE TABLE t(x)`)
	db.Close()
	for _, p := range []string{text, other} {
		if _, err := Open(p); !errors.Is(err, ErrNotRegister) || !strings.Contains(err.Error(), "not a sentinel register") {
			t.Errorf("Open(%s) = %v", p, err)
		}
		if _, err := OpenReadOnly(p); !errors.Is(err, ErrNotRegister) {
			t.Errorf("OpenReadOnly(%s) = %v", p, err)
		}
	}
	if _, err := OpenReadOnly(filepath.Join(dir, "none.db")); !errors.Is(err, ErrNotExist) {
		t.Errorf("OpenReadOnly(missing) = %v", err)
	}
}

func TestSchemaTooNew(t *testing.T) {
	r := openTemp(t)
	r.DB().Exec(`PRAGMA user_version = 99`)
	r.Close()
	for _, open := range []func(string) (*Register, error){Open, OpenReadOnly} {
		_, err := open(r.Path())
		if !errors.Is(err, ErrSchemaTooNew) || !strings.Contains(err.Error(), "schema version 99 is newer") {
			t.Errorf("got %v", err)
		}
	}
}

// TestMigrateFromV1 builds a register with the first schema version only,
// fills it, and checks that Open migrates it in place.
func TestMigrateFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "register.db")
	db, err := sql.Open("sqlite3", fileDSN(path, map[string][]string{"_txlock": {"immediate"}}))
	if err != nil {
		t.Fatal(err)
	}
	old := &Register{db: db, path: path, busy: time.Second}
	if err := old.migrateTo(1); err != nil {
		t.Fatal(err)
	}
	// The entries are made by today's code in a register of its own and
	// copied in with the columns v1 has.
	src := openTemp(t)
	if err := BulkLoad(src, 50, sample); err != nil {
		t.Fatal(err)
	}
	src.Close()
	v1cols := `seq, kind, time_us, session_id, tool_use_id, cwd, tool, input, salt, commitment, decision, rules,
		reason, attended, permission_mode, catalog_version, catalog_hash, version, ref, label, prev_hash, hash`
	for _, q := range []string{`ATTACH DATABASE ` + "'" + src.Path() + "'" + ` AS src`,
		`INSERT INTO entries (` + v1cols + `) SELECT ` + v1cols + ` FROM src.entries`, `DETACH DATABASE src`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	id := old.ID()
	db.Close()

	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if v, _ := r.schemaVersion(); v != SchemaVersion {
		t.Fatalf("schema version %d after Open", v)
	}
	var n int
	r.DB().QueryRow(`SELECT count(*) FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'entries'`).Scan(&n)
	if n != 7 {
		t.Errorf("%d indexes+triggers, want 7", n)
	}
	if r.ID() != id {
		t.Errorf("register id changed in migration")
	}
	appendN(t, r, 1)
	if rep := r.Verify(); !rep.OK() || rep.Entries != 51 {
		t.Fatalf("verify after migration: %v", rep)
	}
}

// TestReadOnlyOlderSchema: a register an older sentinel wrote (v1 to the
// version before today's), opened read-only as census, verify, log and
// replay open it, reads and verifies without being migrated; the columns
// it lacks read empty. (A v4 register failed with "no such column:
// harness" before.)
func TestReadOnlyOlderSchema(t *testing.T) {
	src := openTemp(t)
	if err := BulkLoad(src, 20, sample); err != nil {
		t.Fatal(err)
	}
	src.Close()
	for v := 1; v < SchemaVersion; v++ {
		path := filepath.Join(t.TempDir(), "register.db")
		db, err := sql.Open("sqlite3", fileDSN(path, map[string][]string{"_txlock": {"immediate"}}))
		if err != nil {
			t.Fatal(err)
		}
		old := &Register{db: db, path: path, busy: time.Second}
		if err := old.migrateTo(v); err != nil {
			t.Fatal(err)
		}
		var have []string
		for _, c := range entryCols {
			if n, ok := addedIn[c]; !ok || n <= v {
				have = append(have, c)
			}
		}
		cols := strings.Join(have, ", ")
		for _, q := range []string{`ATTACH DATABASE '` + src.Path() + `' AS src`,
			`INSERT INTO entries (` + cols + `) SELECT ` + cols + ` FROM src.entries`, `DETACH DATABASE src`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(q, err)
			}
		}
		db.Close()
		ro, err := OpenReadOnly(path)
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if rep := ro.Verify(); !rep.OK() || rep.Entries != 20 {
			t.Errorf("v%d: verify %v", v, rep)
		}
		es, err := ro.Query(Filter{Limit: 3})
		if err != nil || len(es) != 3 {
			t.Errorf("v%d: query %d entries, %v", v, len(es), err)
		}
		n := 0
		if err := ro.Each(1, func(*Entry) error { n++; return nil }); err != nil || n != 20 {
			t.Errorf("v%d: each %d entries, %v", v, n, err)
		}
		if got, _ := ro.schemaVersion(); got != v {
			t.Errorf("v%d: read-only open migrated it to v%d", v, got)
		}
		ro.Close()
	}
}

func TestReadOnlyOpen(t *testing.T) {
	r := openTemp(t)
	es := appendN(t, r, 3)
	ro, err := OpenReadOnly(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rep := ro.Verify(); !rep.OK() || rep.Head != es[2].Hash {
		t.Fatalf("verify read-only: %v", rep)
	}
	if err := ro.Append(sample(1)); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Append on read-only = %v", err)
	}
}

// mountTmpfs mounts a small tmpfs at a fresh directory (root only) and
// returns it with a function that runs mount(8) on it again.
func mountTmpfs(t *testing.T, size string) (string, func(opts string)) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir, func(opts string) {
		t.Helper()
		if out, err := exec.Command("mount", "-o", opts, dir).CombinedOutput(); err != nil {
			t.Fatalf("mount -o %s: %v %s", opts, err, out)
		}
	}
}

// TestReadOnlyFileSystem: the register's file system becomes read-only.
// Open or Append fails with a message naming it; reading still works.
func TestReadOnlyFileSystem(t *testing.T) {
	dir, remount := mountTmpfs(t, "4m")
	path := filepath.Join(dir, "register.db")
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	es := appendN(t, r, 3)
	r.Close()
	remount("remount,ro")
	defer remount("remount,rw")

	r, err = Open(path)
	if err == nil {
		err = r.Append(sample(1))
		r.Close()
	}
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only file system") {
		t.Fatalf("append on a read-only fs = %v", err)
	}
	t.Logf("error: %v", err)
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rep := ro.Verify(); !rep.OK() || rep.Head != es[2].Hash {
		t.Fatalf("verify on a read-only fs: %v (warnings %v)", rep, ro.Warnings())
	}
}

// TestReadOnlyRegisterJournal: the register file alone is read-only (a
// read-only bind mount of the file; the directory stays writable). The
// decision is journaled; once the file is writable again, the next append
// merges it: nothing lost, nothing twice.
func TestReadOnlyRegisterJournal(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for a read-only bind mount")
	}
	r := openTemp(t)
	appendN(t, r, 2)
	path := r.Path()
	r.Close()
	if out, err := exec.Command("mount", "--bind", path, path).CombinedOutput(); err != nil {
		t.Skipf("bind mount: %v %s", err, out)
	}
	mounted := true
	unmount := func() {
		if mounted {
			exec.Command("umount", path).Run()
			mounted = false
		}
	}
	defer unmount()
	if out, err := exec.Command("mount", "-o", "remount,ro,bind", path).CombinedOutput(); err != nil {
		t.Skipf("remount ro: %v %s", err, out)
	}
	var journaled []*Entry
	for i := 0; i < 3; i++ {
		e := sample(10 + i)
		rr, err := Open(path)
		if err == nil {
			err = rr.Append(e)
			rr.Close()
		}
		if !errors.Is(err, ErrReadOnly) {
			t.Fatalf("append to a read-only register = %v", err)
		}
		if i == 0 {
			t.Logf("error: %v", err)
		}
		if err := JournalWhy(filepath.Dir(path), e, err); err != nil {
			t.Fatal(err)
		}
		journaled = append(journaled, e)
	}
	if n, _ := PendingJournal(filepath.Dir(path)); n != 3 {
		t.Fatalf("pending %d", n)
	}
	unmount()

	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	last := sample(20)
	if err := r.Append(last); err != nil {
		t.Fatal(err)
	}
	if last.Seq != 6 {
		t.Fatalf("seq %d, want 6", last.Seq)
	}
	for i, j := range journaled {
		got, err := r.Get(int64(3 + i))
		if err != nil {
			t.Fatal(err)
		}
		if got.Commitment != j.Commitment || got.ToolUseID != j.ToolUseID || !got.Time.Equal(j.Time) {
			t.Errorf("journaled %d merged as %+v", i, got)
		}
	}
	if rep := r.Verify(); !rep.OK() || rep.Entries != 6 {
		t.Fatalf("verify: %v", rep)
	}
	if n, _ := PendingJournal(r.Dir()); n != 0 {
		t.Errorf("%d lines still pending", n)
	}
}

// TestDiskFull: the register's file system fills up. Append fails with a
// clear "disk full" and leaves the chain intact; once space is freed the
// register carries on.
func TestDiskFull(t *testing.T) {
	dir, _ := mountTmpfs(t, "1m")
	r, err := Open(filepath.Join(dir, "register.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	appendN(t, r, 5)
	filler := filepath.Join(dir, "filler")
	f, _ := os.Create(filler)
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	var appendErr error
	for i := 0; i < 200 && appendErr == nil; i++ {
		e := sample(i)
		e.Input = make([]byte, 8192) // pages the WAL cannot grow into
		appendErr = r.Append(e)
	}
	if !errors.Is(appendErr, ErrDiskFull) || !strings.Contains(appendErr.Error(), "disk full") {
		t.Fatalf("append on a full disk = %v", appendErr)
	}
	t.Logf("error: %v", appendErr)
	if err := Journal(dir, sample(1)); err != nil {
		t.Logf("journal on the full disk fails too, as it must: %v", err)
	}
	os.Remove(filler)
	if err := r.Append(sample(2)); err != nil {
		t.Fatal(err)
	}
	if rep := r.Verify(); !rep.OK() {
		t.Fatalf("verify: %v", rep)
	}
}
