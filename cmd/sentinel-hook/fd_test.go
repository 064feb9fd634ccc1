package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/sentinel-guard/sentinel/register"
)

// nofileEnv makes the test binary a launcher: it sets RLIMIT_NOFILE (soft
// and hard) to the value and execs the hook named by nofileExec, so that
// the hook starts with the limit as Claude Code's process would give it.
const (
	nofileEnv  = "SENTINEL_TEST_NOFILE"
	nofileExec = "SENTINEL_TEST_NOFILE_EXEC"
)

func execWithNOFILE(n string) {
	// Descriptors this process inherited (a flock(1) lock around go test, a
	// CI runner's pipes) would count against the limit in the hook and make
	// it measure the parent, not the limit: close them on exec.
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		for _, e := range ents {
			if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
				syscall.CloseOnExec(fd)
			}
		}
	}
	v, err := strconv.ParseUint(n, 10, 64)
	if err == nil {
		err = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: v, Max: v})
	}
	if err == nil {
		bin := os.Getenv(nofileExec)
		err = syscall.Exec(bin, []string{bin}, os.Environ())
	}
	fmt.Fprintln(os.Stderr, "launcher:", err)
	os.Exit(99)
}

// TestDescriptorLimits: at every descriptor limit at which the hook can
// start (4 and up; at 3 the dynamic loader cannot open libc), it exits 0
// and answers with JSON or, when it could record an allow, nothing;
// running out of descriptors is said as such, never as a vanished
// register; and once the limit is back the register is intact (issue 21:
// at 4-6 the hook exited 2, at 10-11 it pointed at a reset).
func TestDescriptorLimits(t *testing.T) {
	s := newSandbox(t, "")
	s.run(payload("toolu_fd_warm", "true"))
	for n := 4; n <= 12; n++ {
		id := fmt.Sprintf("toolu_fd_%02d", n)
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(append([]string{}, s.env...), nofileEnv+"="+strconv.Itoa(n), nofileExec+"="+hookBin)
		cmd.Stdin = bytes.NewReader(payload(id, "ls"))
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if err != nil {
			t.Errorf("limit %d: %v (must exit 0)\nstdout: %s\nstderr: %s", n, err, out.String(), errb.String())
			continue
		}
		r := hookRun{stdout: out.String(), stderr: errb.String()}
		got := r.decision(t)
		if got == "allow" {
			// Only an allow that is recorded (register or journal) may stay one.
			if !strings.Contains(r.stderr, "fallback journal") && !recordedIn(t, s, id) {
				t.Errorf("limit %d: allowed but not recorded\nstderr: %s", n, r.stderr)
			}
		} else if got != "ask" {
			t.Errorf("limit %d: answer %q, want ask (attended) or a recorded allow", n, got)
		}
		if strings.Contains(r.stdout+r.stderr, "vanished") || strings.Contains(r.stdout+r.stderr, "reset --accept-loss") {
			t.Errorf("limit %d: descriptor exhaustion reported as a vanished register:\n%s%s", n, r.stdout, r.stderr)
		}
		if got != "allow" && !strings.Contains(r.stdout, "descriptor") {
			t.Errorf("limit %d: the answer does not say descriptors ran out: %s", n, r.stdout)
		}
	}
	// At a normal limit the register is intact and takes the next call.
	s.run(payload("toolu_fd_after", "true"))
	reg := s.openRegister()
	if rep := reg.Verify(); !rep.OK() {
		t.Fatalf("verify after the limits: %s", rep)
	}
	if err := register.Continuity(filepath.Join(s.state, "register.db")); err != nil {
		t.Errorf("continuity after the limits: %v", err)
	}
}

func recordedIn(t *testing.T, s *sandbox, id string) bool {
	reg, err := register.Open(filepath.Join(s.state, "register.db"))
	if err != nil {
		return false
	}
	defer reg.Close()
	found := false
	reg.Each(1, func(e *register.Entry) error {
		found = found || e.ToolUseID == id
		return nil
	})
	return found
}
