package main

// End-to-end tests of the built sentinel-hook binary for what a txtar script
// cannot express well: many processes at once, processes killed mid-append,
// payloads over the size limit, a read-only and a full file system.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/toolcall"
)

// hookBin is the built binary; built on first use (buildHook), so that a
// fuzz worker, which runs no end-to-end test, does not build it.
var (
	hookBin   string
	buildDir  string
	buildOnce sync.Once
	buildErr  error
)

func TestMain(m *testing.M) {
	if n := os.Getenv(nofileEnv); n != "" {
		execWithNOFILE(n) // a child of TestDescriptorLimits (fd_test.go): never returns
	}
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func buildHook(t *testing.T) {
	t.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "sentinel-hook-test"); buildErr != nil {
			return
		}
		hookBin = filepath.Join(buildDir, "sentinel-hook")
		out, err := exec.Command("go", "build", "-o", hookBin, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building sentinel-hook: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// sandbox is one test's HOME, config and register directory.
type sandbox struct {
	t     *testing.T
	state string
	env   []string
}

func newSandbox(t *testing.T, state string) *sandbox {
	t.Helper()
	buildHook(t)
	root := t.TempDir()
	if state == "" {
		state = filepath.Join(root, "state")
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(root, "home"),
		"SENTINEL_HOME=" + state, "XDG_CONFIG_HOME=" + filepath.Join(root, "config")}
	return &sandbox{t: t, state: state, env: env}
}

type hookRun struct {
	stdout, stderr string
	exit           int
}

// decision is the permissionDecision printed, or "allow" for no output.
func (r hookRun) decision(t *testing.T) string {
	t.Helper()
	if strings.TrimSpace(r.stdout) == "" {
		return "allow"
	}
	var o output
	if err := json.Unmarshal([]byte(r.stdout), &o); err != nil {
		t.Fatalf("stdout is not the hook's JSON: %v\n%s", err, r.stdout)
	}
	return o.HookSpecificOutput.PermissionDecision
}

func (s *sandbox) run(payload []byte, extraEnv ...string) hookRun {
	s.t.Helper()
	cmd := exec.Command(hookBin)
	cmd.Env = append(append([]string{}, s.env...), extraEnv...)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := hookRun{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else if err != nil {
		s.t.Fatalf("running the hook: %v", err)
	}
	if r.exit != 0 {
		s.t.Fatalf("the hook exited %d (must always exit 0)\nstderr: %s", r.exit, r.stderr)
	}
	return r
}

// openRegister opens the sandbox's register for reading.
func (s *sandbox) openRegister() *register.Register {
	s.t.Helper()
	reg, err := register.Open(filepath.Join(s.state, "register.db"))
	if err != nil {
		s.t.Fatalf("opening the register: %v", err)
	}
	s.t.Cleanup(func() { reg.Close() })
	return reg
}

func payload(toolUseID, command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id": "test-session", "transcript_path": "/tmp/t.jsonl", "cwd": "/home/dev/proj",
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": command, "description": "test"}, "tool_use_id": toolUseID,
	})
	return b
}

func TestPayloadOverLimit(t *testing.T) {
	s := newSandbox(t, "")
	big := append([]byte(`{"tool_name":"Bash","tool_input":{"command":"echo `), bytes.Repeat([]byte("a"), toolcall.MaxPayload)...)
	big = append(big, `"}}`...)
	r := s.run(big)
	// Not read, so who sent it is not known: the ask is written as the deny
	// that blocks in Codex too, and says it is an ask (docs/codex.md).
	if d := r.decision(t); d != "deny" || !strings.Contains(r.stdout, "This is an ask") {
		t.Errorf("decision %q, want the ask written as a deny: %s", d, r.stdout)
	}
	if !strings.Contains(r.stderr, "over the 8 MiB limit") {
		t.Errorf("stderr does not say why: %q", r.stderr)
	}
	es, err := s.openRegister().Query(register.Filter{Kind: register.KindError})
	if err != nil || len(es) != 1 {
		t.Fatalf("want one error entry, got %d (%v)", len(es), err)
	}
	if !strings.Contains(es[0].Reason, "over the 8 MiB limit") || es[0].Decision != "ask" {
		t.Errorf("error entry: decision %q reason %q", es[0].Decision, es[0].Reason)
	}
	// Unattended the same payload is denied.
	if d := s.run(big, "SENTINEL_UNATTENDED=1").decision(t); d != "deny" {
		t.Errorf("unattended decision %q, want deny", d)
	}
}

// TestConcurrentAppends: 16 hook processes at once, 100 calls each, give
// 1,600 entries in one linear chain, each call exactly once; a call the
// deadline answered (a loaded machine) is ask, and recorded once or twice
// (its append may commit as the deadline journals it).
func TestConcurrentAppends(t *testing.T) {
	const procs, calls = 16, 100
	s := newSandbox(t, "")
	s.run(payload("toolu_warm", "true")) // create the register before the stampede
	var wg sync.WaitGroup
	var journaled atomic.Int64
	var late sync.Map // calls the deadline answered: fail-closed, maybe recorded twice
	errs := make(chan string, procs*calls)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for c := 0; c < calls; c++ {
				cmd := exec.Command(hookBin)
				cmd.Env = s.env
				cmd.Stdin = bytes.NewReader(payload(fmt.Sprintf("toolu_p%02d_c%03d", p, c), "git status"))
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				id := fmt.Sprintf("toolu_p%02d_c%03d", p, c)
				switch {
				case err == nil && (strings.Contains(out.String(), `"permissionDecision":"ask"`) ||
					strings.Contains(out.String(), `"permissionDecision":"deny"`)) &&
					strings.Contains(out.String(), "budget"):
					// On a machine this loaded the deadline may answer first:
					// fail-closed (a deny while the payload was still being
					// read: who is watching was not known), and recorded
					// (checked below).
					late.Store(id, strings.Contains(out.String(), "reading the payload"))
				case err != nil || out.Len() > 0:
					errs <- fmt.Sprintf("proc %d call %d: %v %q %s", p, c, err, out.String(), errb.String())
				case strings.Contains(errb.String(), "the decision is in the fallback journal"):
					journaled.Add(1) // not lost: merged below
				case errb.Len() > 0:
					errs <- fmt.Sprintf("proc %d call %d: %s", p, c, errb.String())
				}
			}
		}(p)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	reg := s.openRegister()
	// A call that waited past the busy timeout is in the journal; the next
	// append merges it. Merge what the last calls may have left.
	merged, err := reg.MergeJournal()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d calls went through the fallback journal (%d merged at the end)", journaled.Load(), procs*calls, merged)
	nLate := 0
	late.Range(func(any, any) bool { nLate++; return true })
	t.Logf("%d of %d calls were answered by the deadline", nLate, procs*calls)
	n, err := reg.Count()
	if err != nil || n < procs*calls+1 || n > procs*calls+1+int64(nLate) {
		t.Fatalf("entries: %d (%v), want %d (+ at most %d late calls recorded twice)", n, err, procs*calls+1, nLate)
	}
	if rep := reg.Verify(); !rep.OK() || rep.Entries != n {
		t.Fatalf("verify: %s", rep)
	}
	seen := map[string]int{}
	unnamed := 0 // deadline entries written before the payload named the call
	err = reg.Each(1, func(e *register.Entry) error {
		seen[e.ToolUseID]++
		if e.ToolUseID == "" && e.Kind == register.KindError {
			unnamed++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for p := 0; p < procs; p++ {
		for c := 0; c < calls; c++ {
			id := fmt.Sprintf("toolu_p%02d_c%03d", p, c)
			v, wasLate := late.Load(id)
			if wasLate && v.(bool) && seen[id] == 0 {
				missing++ // its entry has no tool_use_id: counted below
				continue
			}
			if seen[id] < 1 || (seen[id] > 1 && !wasLate) || seen[id] > 2 {
				t.Errorf("%s registered %d times (answered by the deadline: %v)", id, seen[id], wasLate)
			}
		}
	}
	if missing > unnamed {
		t.Errorf("%d calls answered by the deadline before their payload was read, but only %d error entries without a tool_use_id", missing, unnamed)
	}
	if pending, _ := register.PendingJournal(s.state); pending != 0 {
		t.Errorf("%d entries left in the journal", pending)
	}
}

// TestKilledMidAppend kills hook processes with SIGKILL at random points of
// their run, many times and several at once; the register must still verify
// with no partial entry, and the next call must append normally.
func TestKilledMidAppend(t *testing.T) {
	s := newSandbox(t, "")
	s.run(payload("toolu_first", "ls"))
	// How long one call takes, to spread the kills over a whole call.
	t0 := time.Now()
	s.run(payload("toolu_second", "ls"))
	span := time.Since(t0)
	const rounds, width = 40, 4
	killed := 0
	for i := 0; i < rounds; i++ {
		var cmds []*exec.Cmd
		for j := 0; j < width; j++ {
			cmd := exec.Command(hookBin)
			cmd.Env = s.env
			cmd.Stdin = bytes.NewReader(payload(fmt.Sprintf("toolu_k%02d_%d", i, j), "rm -rf ~"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(span) + 1)))
		for _, cmd := range cmds {
			if cmd.Process.Signal(syscall.SIGKILL) == nil {
				killed++
			}
			cmd.Wait()
		}
	}
	t.Logf("%d processes sent SIGKILL over %d rounds (one call takes about %v)", killed, rounds, span)
	r := s.run(payload("toolu_after", "rm -rf ~"))
	if d := r.decision(t); d != "deny" || r.stderr != "" {
		t.Fatalf("after the kills: decision %s, stderr %q", d, r.stderr)
	}
	reg := s.openRegister()
	rep := reg.Verify()
	if !rep.OK() {
		t.Fatalf("verify after kills: %s", rep)
	}
	var rows int
	if err := reg.DB().QueryRow(`PRAGMA integrity_check`).Scan(new(string)); err != nil {
		t.Fatalf("integrity_check: %v", err)
	}
	reg.DB().QueryRow(`SELECT count(*) FROM entries`).Scan(&rows)
	if int64(rows) != rep.Entries {
		t.Fatalf("%d rows but %d verified entries", rows, rep.Entries)
	}
	last, err := reg.Query(register.Filter{Limit: 1})
	if err != nil || len(last) != 1 || last[0].ToolUseID != "toolu_after" {
		t.Fatalf("the last entry is not the call after the kills: %v %v", last, err)
	}
	t.Logf("%d entries survive, chain intact", rep.Entries)
}

// mountTmpfs mounts a small tmpfs for a test, or skips when not permitted.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs (read-only and full-disk cases)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s); the case is not tested", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

func remount(t *testing.T, dir, mode string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+mode, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v %s", mode, err, out)
	}
}

// TestReadOnlyRegister: the register's file system turns read-only. No
// entry and no journal line can be written, so even a call the catalog
// allows is not allowed silently: ask attended, deny unattended, and stderr
// says the decision could not be registered.
func TestReadOnlyRegister(t *testing.T) {
	mnt := mountTmpfs(t, "8m")
	s := newSandbox(t, filepath.Join(mnt, "state"))
	s.run(payload("toolu_1", "ls"))
	remount(t, mnt, "ro")
	for _, tc := range []struct {
		env  []string
		want string
	}{{nil, "ask"}, {[]string{"SENTINEL_UNATTENDED=1"}, "deny"}} {
		r := s.run(payload("toolu_ro", "ls"), tc.env...)
		if d := r.decision(t); d != tc.want {
			t.Errorf("read-only register %v: decision %s, want %s", tc.env, d, tc.want)
		}
		if !strings.Contains(r.stderr, "this decision could not be registered") {
			t.Errorf("stderr does not say so: %q", r.stderr)
		}
		if !strings.Contains(r.stdout, "Not in the register") {
			t.Errorf("the reason does not say so: %q", r.stdout)
		}
	}
	remount(t, mnt, "rw")
	if d := s.run(payload("toolu_2", "ls")).decision(t); d != "allow" {
		t.Errorf("after remount rw: %s", d)
	}
	if rep := s.openRegister().Verify(); !rep.OK() || rep.Entries != 2 {
		t.Errorf("verify: %s (want 2 entries)", rep)
	}
}

// TestImmutableRegisterFile: the database file cannot be written (chattr
// +i, which binds root too) but its directory can: the decision goes to the
// fallback journal, and is merged once the file is writable again.
func TestImmutableRegisterFile(t *testing.T) {
	mnt := mountTmpfs(t, "8m")
	s := newSandbox(t, filepath.Join(mnt, "state"))
	s.run(payload("toolu_1", "ls"))
	db := filepath.Join(s.state, "register.db")
	// Checkpoint the WAL so that the -wal file is not what takes the write.
	reg, err := register.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	reg.DB().Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	reg.Close()
	files, _ := filepath.Glob(db + "*")
	if out, err := exec.Command("chattr", append([]string{"+i"}, files...)...).CombinedOutput(); err != nil {
		t.Skipf("chattr +i not available: %v %s", err, out)
	}
	r := s.run(payload("toolu_imm", "rm -rf ~"))
	exec.Command("chattr", append([]string{"-i"}, files...)...).Run()
	if d := r.decision(t); d != "deny" {
		t.Errorf("decision %s, want deny", d)
	}
	if !strings.Contains(r.stderr, "fallback journal") {
		t.Errorf("stderr: %q", r.stderr)
	}
	if n, _ := register.PendingJournal(s.state); n != 1 {
		t.Fatalf("journal holds %d lines, want 1", n)
	}
	s.run(payload("toolu_3", "ls"))
	reg2 := s.openRegister()
	if rep := reg2.Verify(); !rep.OK() || rep.Entries != 3 {
		t.Fatalf("verify: %s (want 3 entries)", rep)
	}
	es, _ := reg2.FindByToolUseID("toolu_imm")
	if len(es) != 1 || es[0].Decision != "deny" {
		t.Fatalf("journaled decision not merged: %+v", es)
	}
}

// TestFullDisk: the register's file system is full. The call still gets a
// decision (never a silent allow), and once space is freed the register
// appends again and verifies.
func TestFullDisk(t *testing.T) {
	mnt := mountTmpfs(t, "2m")
	s := newSandbox(t, filepath.Join(mnt, "state"))
	s.run(payload("toolu_1", "ls"))
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	f.Close()
	for i := 0; i < 3; i++ {
		r := s.run(payload(fmt.Sprintf("toolu_full%d", i), "ls"))
		// Either the append or the journal may still fit in a freed page;
		// what must hold is that nothing unregistered is allowed.
		if r.decision(t) == "allow" && strings.Contains(r.stderr, "could not be registered") {
			t.Errorf("an unregistered decision was allowed: %q", r.stderr)
		}
		if r.decision(t) != "allow" && !strings.Contains(r.stderr, "could not be registered") {
			t.Errorf("ask without saying why: %q", r.stderr)
		}
		t.Logf("full disk call %d: %s; stderr %q", i, r.decision(t), r.stderr)
	}
	os.Remove(filler)
	if d := s.run(payload("toolu_2", "ls")).decision(t); d != "allow" {
		t.Errorf("after freeing space: %s", d)
	}
	if rep := s.openRegister().Verify(); !rep.OK() {
		t.Errorf("verify: %s", rep)
	}
}

// output is the one JSON object the hook writes for ask and deny.
type output struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}
