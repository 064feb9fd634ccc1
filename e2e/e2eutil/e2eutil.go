// Package e2eutil is what the end-to-end suites of real harnesses share
// (e2e/claudecode, e2e/codex): the checks that this machine can run them,
// the build of the sentinel binaries, running a process with a deadline,
// and small test helpers. Only the suites import it.
package e2eutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Nobody is the unprivileged user a harness runs as.
const Nobody = 65534

// NamespaceSkip says why this machine cannot run a suite that needs a
// loopback-only network namespace and setpriv ("" when it can); harness
// names the harness for the message.
func NamespaceSkip(harness string) string {
	if os.Geteuid() != 0 {
		return "not root: the suite needs unshare -n for a loopback-only network namespace and setpriv to run " + harness + " as an unprivileged user"
	}
	for _, tool := range []string{"unshare", "setpriv", "ip", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Sprintf("%s is not installed (util-linux, iproute2, git)", tool)
		}
	}
	if out, err := exec.Command("unshare", "-n", "ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Sprintf("cannot make a network namespace here (unshare -n: %v: %s)", err, strings.TrimSpace(string(out)))
	}
	return ""
}

// SourceEnv names another checkout of sentinel to build the binaries from
// (to try a branch's hooks against a suite); default this module.
const SourceEnv = "SENTINEL_E2E_SRC"

// BuildSentinel builds sentinel and sentinel-hook into a new directory
// (readable by Nobody) and returns it.
func BuildSentinel(prefix string) (string, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return dir, err
	}
	root := os.Getenv(SourceEnv)
	if root == "" {
		if root, err = ModuleRoot(); err != nil {
			return dir, err
		}
	}
	// go test caches a passing result by what this process read; the build
	// below reads the sources in a child, so look at them here too, or a
	// cached pass would hide a change to the hooks.
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if err == nil && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum") {
			os.Stat(p)
		}
		return nil
	})
	build := exec.Command("go", "build", "-o", dir+"/", "./cmd/sentinel", "./cmd/sentinel-hook")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return dir, fmt.Errorf("go build: %v\n%s", err, out)
	}
	return dir, nil
}

// ModuleRoot is the directory of this module's go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// RunWithin starts cmd in its own process group and waits for it at most
// timeout, then kills the group. It returns the exit code (-1 when it did
// not exit normally) and whether it timed out.
func RunWithin(cmd *exec.Cmd, timeout time.Duration) (code int, timedOut bool, err error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return -1, false, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(timeout):
		timedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	return ExitCode(err), timedOut, nil
}

// ExitCode is a finished command's exit code: 0 for nil, -1 when it did not
// exit normally.
func ExitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

// Must fails the test on an error.
func Must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// WriteJSONFile writes v as indented JSON.
func WriteJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	Must(t, err)
	Must(t, os.WriteFile(path, b, 0o644))
}

// ChownR gives dir and everything in it to uid and gid id.
func ChownR(t *testing.T, dir string, id int) {
	t.Helper()
	Must(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, id, id)
	}))
}

// JSONTree is decoded JSON with a path getter.
type JSONTree map[string]any

// Get is the value at a dotted path; ok is false when a key is absent.
func (j JSONTree) Get(path string) (any, bool) {
	var v any = map[string]any(j)
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// Num is the number at a dotted path; ok is false when the key is absent
// or null.
func (j JSONTree) Num(path string) (int64, bool) {
	v, _ := j.Get(path)
	f, ok := v.(float64)
	return int64(f), ok
}

// GitProject makes dir a git repository (branch main) with file committed
// as committed, then changed on disk to changed: an uncommitted change a
// destructive git command would lose.
func GitProject(t *testing.T, dir, file, committed, changed string) {
	t.Helper()
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", dir}, args...)...)
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("config", "user.email", "e2e@example.invalid")
	git("config", "user.name", "e2e")
	Must(t, os.WriteFile(filepath.Join(dir, file), []byte(committed), 0o644))
	git("add", file)
	git("commit", "-q", "-m", "initial")
	Must(t, os.WriteFile(filepath.Join(dir, file), []byte(changed), 0o644))
}

// AsNobody is prog run as Nobody in dir, with HOME and a plain PATH, and
// extra environment.
func AsNobody(home, dir string, extra []string, prog string, args ...string) *exec.Cmd {
	id := strconv.Itoa(Nobody)
	c := exec.Command("setpriv", append([]string{"--reuid", id, "--regid", id, "--clear-groups", "--", prog}, args...)...)
	c.Env = append([]string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}, extra...)
	c.Dir = dir
	return c
}

// RunJSON runs c and decodes its standard output into v. Exit code 1 is
// allowed (sentinel uses it for a finding).
func RunJSON(t *testing.T, c *exec.Cmd, v any) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	if err != nil && ExitCode(err) != 1 {
		t.Fatalf("%v: %v\n%s%s", c.Args, err, stdout.Bytes(), stderr.Bytes())
	}
	if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
		t.Fatalf("%v: output is not JSON: %v\n%s%s", c.Args, err, stdout.Bytes(), stderr.Bytes())
	}
}
