package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sentinel-guard/sentinel/e2e/e2eutil"
	"github.com/sentinel-guard/sentinel/e2e/fakeresponses"
)

// RunnerEnv names the environment variable that makes the test binary act
// as the runner inside the namespace: its value is the spec file.
const RunnerEnv = "SENTINEL_E2E_CODEX_SPEC"

// fakePort is where the fake listens, inside each run's own namespace; the
// config.toml written before the run names it.
const fakePort = 18765

// Spec is one Codex run, as the runner reads it.
type Spec struct {
	Codex      string               `json:"codex"`
	Home       string               `json:"home"`
	Project    string               `json:"project"`
	UID        int                  `json:"uid"`
	Args       []string             `json:"args"` // after "codex exec --json --skip-git-repo-check"
	Script     fakeresponses.Script `json:"script"`
	OutDir     string               `json:"out_dir"`
	TimeoutSec int                  `json:"timeout_sec"`
}

// Outcome is what the runner saw.
type Outcome struct {
	IDs      []string                `json:"ids"`
	Results  []fakeresponses.Result  `json:"results"`
	Requests []fakeresponses.Request `json:"requests"`
	ExitCode int                     `json:"exit_code"`
	TimedOut bool                    `json:"timed_out"`
	Seconds  float64                 `json:"seconds"`
	Error    string                  `json:"error,omitempty"`
}

// RunRunner is the namespace side: it brings up loopback, serves the fake
// there, runs Codex and writes outcome.json to the spec's OutDir.
func RunRunner(specPath string) error {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var sp Spec
	if err := json.Unmarshal(raw, &sp); err != nil {
		return fmt.Errorf("spec %s: %v", specPath, err)
	}
	oc := run(sp)
	b, _ := json.MarshalIndent(oc, "", "  ")
	return os.WriteFile(filepath.Join(sp.OutDir, "outcome.json"), b, 0o644)
}

func run(sp Spec) *Outcome {
	oc := &Outcome{ExitCode: -1}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		oc.Error = fmt.Sprintf("ip link set lo up: %v: %s", err, out)
		return oc
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(fakePort))
	if err != nil {
		oc.Error = err.Error()
		return oc
	}
	srv := fakeresponses.New(sp.Script)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	oc.IDs = srv.IDs()

	id := strconv.Itoa(sp.UID)
	args := append([]string{"--reuid", id, "--regid", id, "--clear-groups", "--", sp.Codex, "exec", "--json", "--skip-git-repo-check"}, sp.Args...)
	args = append(args, "Run the scripted commands.")
	cmd := exec.Command("setpriv", args...)
	cmd.Env = []string{
		"HOME=" + sp.Home,
		"CODEX_HOME=" + filepath.Join(sp.Home, ".codex"),
		"USER=nobody", "LOGNAME=nobody",
		"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
		"LANG=C.UTF-8",
		"OPENAI_API_KEY=sk-fake-test",
	}
	cmd.Dir = sp.Project
	stdout, err := os.Create(filepath.Join(sp.OutDir, "events.jsonl"))
	if err != nil {
		oc.Error = err.Error()
		return oc
	}
	defer stdout.Close()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	timeout := time.Duration(sp.TimeoutSec) * time.Second
	if timeout <= 0 {
		timeout = 120 * time.Second
	}
	start := time.Now()
	oc.ExitCode, oc.TimedOut, err = e2eutil.RunWithin(cmd, timeout)
	if err != nil {
		oc.Error = err.Error()
		return oc
	}
	oc.Seconds = time.Since(start).Seconds()
	os.WriteFile(filepath.Join(sp.OutDir, "stderr.txt"), stderr.Bytes(), 0o644)
	// Let a last request in flight finish before reading the results.
	time.Sleep(100 * time.Millisecond)
	oc.Results = srv.Results()
	oc.Requests = srv.Requests()
	return oc
}
