package main

// The attacker's scripts of issue 13, kept as tests of the built binary:
// the agent runs as the operator's user and replaces the files the hook
// reads (a FIFO, /dev/zero, a huge file), holds its locks, or stops a hook
// mid-append. Each must give a fail-closed answer (the JSON on stdout, exit
// 0) within the budget, and the call must be in the register or the journal.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/toolcall"
)

// attackBudget is the hook's budget in these tests; slack is what a loaded
// shared machine may add to process start and exit. Both stay well under
// the timeout `sentinel install` writes (toolcall.MinInstallTimeout).
const (
	attackBudget = time.Second
	slack        = time.Second
)

// attack is a sandbox with a project directory, run with a short budget.
type attack struct {
	*sandbox
	project, config string
}

func newAttack(t *testing.T) *attack {
	s := newSandbox(t, "")
	a := &attack{sandbox: s, project: filepath.Join(t.TempDir(), "proj")}
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			a.config = filepath.Join(v, "sentinel")
		}
	}
	for _, d := range []string{a.project, a.config, s.state} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	s.env = append(s.env, "CLAUDE_PROJECT_DIR="+a.project, "SENTINEL_HOOK_BUDGET="+attackBudget.String())
	s.run(payload("toolu_warm", "true")) // the register exists before the attack
	return a
}

// call runs one PreToolUse call for id and asserts the fail-closed answer
// (want: ask or deny) within the budget, and returns the run.
func (a *attack) call(id, command, want string, env ...string) hookRun {
	a.t.Helper()
	b, _ := json.Marshal(map[string]any{
		"session_id": "attack", "cwd": a.project, "permission_mode": "default", "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": id,
	})
	start := time.Now()
	r := a.run(b, env...)
	took := time.Since(start)
	if took > attackBudget+toolcall.ExtraMoment+slack {
		a.t.Errorf("%s: answered after %s (budget %s)", id, took, attackBudget)
	}
	if got := r.decision(a.t); got != want {
		a.t.Errorf("%s: answer %s, want %s\nstdout: %s\nstderr: %s", id, got, want, r.stdout, r.stderr)
	}
	return r
}

// recorded asserts that id is in the register or the journal, and returns
// where and the entry's reason (the register's, when it is there).
func (a *attack) recorded(id string) (where, reason string) {
	a.t.Helper()
	if reg, err := register.Open(filepath.Join(a.state, "register.db")); err == nil {
		defer reg.Close()
		reg.Each(1, func(e *register.Entry) error {
			if e.ToolUseID == id {
				where, reason = "register", e.Reason
			}
			return nil
		})
		if where != "" {
			return where, reason
		}
	}
	// Read as the hook must: the journal may be a FIFO.
	if b, err := safefile.ReadFile(filepath.Join(a.state, register.JournalFile), 64<<20); err == nil && bytes.Contains(b, []byte(`"`+id+`"`)) {
		return "journal", ""
	}
	a.t.Errorf("%s is in neither the register nor the journal", id)
	return "", ""
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A configuration file the agent replaced is refused unread: the call is
// unjudged (ask attended, deny unattended), the reason names the file.
func TestAttackConfigFiles(t *testing.T) {
	cases := []struct {
		name, why string
		make      func(a *attack) string // returns the file it made
	}{
		{"project FIFO", "FIFO", func(a *attack) string {
			p := filepath.Join(a.project, ".sentinel.toml")
			mkfifo(t, p)
			return p
		}},
		{"user FIFO", "FIFO", func(a *attack) string {
			p := filepath.Join(a.config, "config.toml")
			mkfifo(t, p)
			return p
		}},
		{"project /dev/zero", "leaves its directory", func(a *attack) string {
			p := filepath.Join(a.project, ".sentinel.toml")
			os.Symlink("/dev/zero", p)
			return p
		}},
		{"user /dev/zero", "leaves its directory", func(a *attack) string {
			p := filepath.Join(a.config, "config.toml")
			os.Symlink("/dev/zero", p)
			return p
		}},
		{"project directory", "directory", func(a *attack) string {
			p := filepath.Join(a.project, ".sentinel.toml")
			os.Mkdir(p, 0o700)
			return p
		}},
		{"huge user config", "limit", func(a *attack) string {
			p := filepath.Join(a.config, "config.toml")
			os.WriteFile(p, bytes.Repeat([]byte("# padding\n"), 200_000), 0o600)
			return p
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAttack(t)
			file := c.make(a)
			for _, mode := range []struct{ want, env string }{{"ask", "SENTINEL_UNATTENDED=0"}, {"deny", "SENTINEL_UNATTENDED=1"}} {
				id := "toolu_" + strings.ReplaceAll(c.name, " ", "_") + "_" + mode.want
				r := a.call(id, "git status", mode.want, mode.env)
				if !strings.Contains(r.stdout, filepath.Base(file)) || !strings.Contains(r.stdout, c.why) {
					t.Errorf("%s: the reason does not name %s and %q: %s", id, file, c.why, r.stdout)
				}
				if where, reason := a.recorded(id); where == "register" && !strings.Contains(reason, file) {
					t.Errorf("%s: register reason %q does not name %s", id, reason, file)
				}
			}
		})
	}
}

// holdLock runs flock(1) in a child that holds path's lock until the test
// ends, and waits until it holds it.
func holdLock(t *testing.T, path string) {
	t.Helper()
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) not installed")
	}
	ready := path + ".held"
	cmd := exec.Command("flock", path, "sh", "-c", "touch "+ready+"; exec sleep 60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; i < 500; i++ {
		if _, err := os.Stat(ready); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("flock child never took the lock")
}

// The hook's queue lock held for ever: the queue is skipped after a
// bounded wait and the call is judged and appended as usual.
func TestAttackQueueLockHeld(t *testing.T) {
	a := newAttack(t)
	holdLock(t, filepath.Join(a.state, "hook.lock"))
	a.call("toolu_queue_held", "rm -rf ~", "deny")
	if where, _ := a.recorded("toolu_queue_held"); where != "register" {
		t.Errorf("with the queue lock held the call went to the %s", where)
	}
}

// Hook processes stopped (SIGSTOP) at random points of their append, some
// holding the register's write lock: the next call still answers in time,
// fail-closed if it cannot record normally, and is recorded somewhere.
func TestAttackStoppedAppender(t *testing.T) {
	a := newAttack(t)
	var stopped []*exec.Cmd
	t.Cleanup(func() {
		for _, c := range stopped {
			c.Process.Signal(syscall.SIGCONT)
			c.Process.Kill()
			c.Wait()
		}
	})
	for i := 0; i < 8; i++ {
		c := exec.Command(hookBin)
		c.Env = a.env
		c.Stdin = bytes.NewReader(payload(fmt.Sprintf("toolu_stopped_%d", i), "git status"))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i) * 3 * time.Millisecond)
		c.Process.Signal(syscall.SIGSTOP)
		stopped = append(stopped, c)
	}
	for i := 0; i < 3; i++ {
		id := fmt.Sprintf("toolu_after_stop_%d", i)
		b := payload(id, "rm -rf ~")
		start := time.Now()
		r := a.run(b)
		if took := time.Since(start); took > attackBudget+toolcall.ExtraMoment+slack {
			t.Errorf("%s: answered after %s", id, took)
		}
		if d := r.decision(t); d != "deny" && d != "ask" {
			t.Errorf("%s: %s (stderr %s)", id, d, r.stderr)
		}
		a.recorded(id)
	}
}

// A payload that never ends (stdin held open): the deadline answers deny
// (who is watching is not known before the payload is read) and exits 0.
func TestAttackStdinNeverEnds(t *testing.T) {
	a := newAttack(t)
	cmd := exec.Command(hookBin)
	cmd.Env = a.env
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(`{"tool_name":"Bash",`))
	err = cmd.Wait()
	if took := time.Since(start); err != nil || took > attackBudget+toolcall.ExtraMoment+slack {
		t.Errorf("exit %v after %s", err, took)
	}
	r := hookRun{stdout: out.String()}
	if d := r.decision(t); d != "deny" || !strings.Contains(out.String(), "budget") {
		t.Errorf("deadline answer %s: %s", d, out.String())
	}
	if b, err := safefile.ReadFile(filepath.Join(a.state, register.JournalFile), 64<<20); err != nil || !bytes.Contains(b, []byte("deadline")) {
		t.Errorf("the deadline's record is not in the journal: %v %q", err, b)
	}
}
