package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/sentinel-guard/sentinel/e2e/e2eutil"
	"github.com/sentinel-guard/sentinel/e2e/fakeapi"
)

// RunnerEnv names the environment variable that makes the test binary act
// as the runner inside the namespace: its value is the spec file.
const RunnerEnv = "SENTINEL_E2E_RUNNER_SPEC"

// Spec is one Claude Code run, as the runner reads it.
type Spec struct {
	Claude  string         `json:"claude"`
	Home    string         `json:"home"`
	Project string         `json:"project"`
	UID     int            `json:"uid"`
	GID     int            `json:"gid"`
	Args    []string       `json:"args"`
	Env     []string       `json:"env"` // added to the base environment
	Script  fakeapi.Script `json:"script"`
	// Interactive runs Claude Code in a pseudo-terminal; Answers says what
	// the human answers ("yes" or "no") at a prompt for script step k
	// (the key is k in decimal).
	Interactive bool              `json:"interactive"`
	Answers     map[string]string `json:"answers"`
	OutDir      string            `json:"out_dir"`
	TimeoutSec  int               `json:"timeout_sec"`
	// Isolate runs in a private mount and pid namespace too (launch adds
	// unshare -m -p -f --mount-proc): a private /tmp (Claude Code's
	// sandbox shares /tmp/claude-UID between runs of the same uid), and
	// signals the agent sends reach nothing outside this run. Managed, when
	// set, is a directory shown as /etc/claude-code (an overlay over /etc
	// on a tmpfs; the machine's /etc is never written).
	Isolate bool   `json:"isolate"`
	Managed string `json:"managed"`
}

// Prompt is one permission prompt and what was typed at it.
type Prompt struct {
	Step   int    `json:"step"`
	Answer string `json:"answer"`
	Key    string `json:"key"`
	Text   string `json:"text"`
}

// Outcome is what the runner saw.
type Outcome struct {
	IDs        []string          `json:"ids"`
	Results    []fakeapi.Result  `json:"results"`
	Requests   []fakeapi.Request `json:"requests"`
	ExitCode   int               `json:"exit_code"`
	TimedOut   bool              `json:"timed_out"`
	Prompts    []Prompt          `json:"prompts"`    // permission prompts answered (interactive)
	Unexpected []int             `json:"unexpected"` // steps prompted without an answer in the spec
	Error      string            `json:"error,omitempty"`
}

// promptRe matches Claude Code's permission prompt on the screen.
var promptRe = regexp.MustCompile(`Do you want to (proceed|make this edit|create)`)

// ansiRe matches terminal escape sequences.
var ansiRe = regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78MNOc]`)

// Screen strips escapes from terminal output, leaving its text.
func Screen(raw []byte) string {
	return ansiRe.ReplaceAllString(string(raw), " ")
}

// RunRunner is the namespace side: it brings up loopback, serves the fake
// API there, runs Claude Code and writes outcome.json to the spec's OutDir.
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
	if sp.Isolate {
		if err := isolate(sp); err != nil {
			oc.Error = "isolating the run: " + err.Error()
			return oc
		}
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		oc.Error = fmt.Sprintf("ip link set lo up: %v: %s", err, out)
		return oc
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		oc.Error = err.Error()
		return oc
	}
	srv := fakeapi.New(sp.Script)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	oc.IDs = srv.IDs()

	env := []string{
		"HOME=" + sp.Home,
		"USER=nobody", "LOGNAME=nobody",
		"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
		"LANG=C.UTF-8",
		"TERM=xterm-256color",
		"ANTHROPIC_BASE_URL=http://" + ln.Addr().String(),
		"ANTHROPIC_API_KEY=sk-ant-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
	}
	env = append(env, sp.Env...)
	args := append([]string{"--reuid", strconv.Itoa(sp.UID), "--regid", strconv.Itoa(sp.GID), "--clear-groups", "--", sp.Claude}, sp.Args...)
	cmd := exec.Command("setpriv", args...)
	cmd.Env = env
	cmd.Dir = sp.Project
	timeout := time.Duration(sp.TimeoutSec) * time.Second
	if timeout <= 0 {
		timeout = 120 * time.Second
	}
	if sp.Interactive {
		interactive(cmd, sp, srv, oc, timeout)
	} else {
		headless(cmd, sp, oc, timeout)
	}
	// Let a last request in flight finish before reading the results.
	time.Sleep(100 * time.Millisecond)
	oc.Results = srv.Results()
	oc.Requests = srv.Requests()
	return oc
}

// isolate mounts the private /tmp and, if asked, the managed settings
// (see Spec.Isolate). It runs as root in the run's own mount namespace.
func isolate(sp Spec) error {
	if err := syscall.Mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777"); err != nil {
		return fmt.Errorf("tmpfs on /tmp: %v", err)
	}
	if sp.Managed == "" {
		return nil
	}
	ovl := filepath.Join(sp.OutDir, "etc-overlay")
	if err := os.MkdirAll(ovl, 0o700); err != nil {
		return err
	}
	if err := syscall.Mount("tmpfs", ovl, "tmpfs", 0, "mode=0755"); err != nil {
		return fmt.Errorf("tmpfs for the overlay: %v", err)
	}
	up, work := filepath.Join(ovl, "up"), filepath.Join(ovl, "work")
	for _, d := range []string{up, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	if out, err := exec.Command("cp", "-a", sp.Managed, filepath.Join(up, "claude-code")).CombinedOutput(); err != nil {
		return fmt.Errorf("copying the managed settings: %v: %s", err, out)
	}
	if err := syscall.Mount("overlay", "/etc", "overlay", 0, "lowerdir=/etc,upperdir="+up+",workdir="+work); err != nil {
		return fmt.Errorf("overlay on /etc: %v", err)
	}
	return nil
}

func headless(cmd *exec.Cmd, sp Spec, oc *Outcome, timeout time.Duration) {
	stdout, err := os.Create(filepath.Join(sp.OutDir, "stdout.jsonl"))
	if err != nil {
		oc.Error = err.Error()
		return
	}
	defer stdout.Close()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	oc.ExitCode, oc.TimedOut, err = e2eutil.RunWithin(cmd, timeout)
	if err != nil {
		oc.Error = err.Error()
		return
	}
	os.WriteFile(filepath.Join(sp.OutDir, "stderr.txt"), stderr.Bytes(), 0o644)
}

var exitCode = e2eutil.ExitCode

// interactive drives Claude Code's terminal interface. At a permission
// prompt for script step k it chooses the option sp.Answers[k] names ("yes"
// or "no"; a prompt for a step without an answer is declined and reported);
// once the model's final answer was served (or the turn ended at a No) and
// the screen settled, it quits with Ctrl-C twice.
func interactive(cmd *exec.Cmd, sp Spec, srv *fakeapi.Server, oc *Outcome, timeout time.Duration) {
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 160})
	if err != nil {
		oc.Error = err.Error()
		return
	}
	defer f.Close()
	var (
		mu      sync.Mutex
		out     bytes.Buffer
		chunks  []chunk // when each piece of output arrived
		lastOut time.Time
	)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				mu.Lock()
				chunks = append(chunks, chunk{at: time.Now(), off: out.Len()})
				out.Write(buf[:n])
				lastOut = time.Now()
				mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(timeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	answered := map[int]bool{}
	var quitAt, lastAnswer time.Time
	for {
		select {
		case err := <-done:
			oc.ExitCode = exitCode(err)
			writeScreen(sp, &mu, &out)
			return
		case <-deadline:
			oc.TimedOut = true
			cmd.Process.Kill()
			<-done
			writeScreen(sp, &mu, &out)
			return
		case <-tick.C:
		}
		step, servedAt := lastStep(srv)
		mu.Lock()
		// Only output drawn after this step was served can be its prompt.
		from := out.Len()
		for _, c := range chunks {
			if !c.at.Before(servedAt) {
				from = c.off
				break
			}
		}
		text := Screen(out.Bytes()[from:])
		idle := time.Since(lastOut)
		mu.Unlock()
		if step >= 0 && !answered[step] && idle > 300*time.Millisecond {
			if loc := promptRe.FindStringIndex(text); loc != nil {
				want, ok := sp.Answers[strconv.Itoa(step)]
				if !ok {
					want = "no"
					oc.Unexpected = append(oc.Unexpected, step)
				}
				key := optionKey(text[loc[0]:], want)
				answered[step] = true
				oc.Prompts = append(oc.Prompts, Prompt{Step: step, Answer: want, Key: key, Text: promptText(text, loc[0])})
				f.Write([]byte(key))
				lastAnswer = time.Now()
				continue
			}
		}
		// Done: the final answer was served, or a No ended the turn; and
		// the screen settled.
		ended := srv.Finished() || len(oc.Prompts) > 0 && oc.Prompts[len(oc.Prompts)-1].Answer == "no" && time.Since(lastAnswer) > 4*time.Second
		if ended && idle > 1500*time.Millisecond && (quitAt.IsZero() || time.Since(quitAt) > 5*time.Second) {
			f.Write([]byte{3})
			time.Sleep(400 * time.Millisecond)
			f.Write([]byte{3})
			quitAt = time.Now()
		}
	}
}

type chunk struct {
	at  time.Time
	off int
}

// lastStep is the script step of the latest main-conversation answer.
func lastStep(srv *fakeapi.Server) (int, time.Time) {
	reqs := srv.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Kind == "main" {
			return reqs[i].Step, reqs[i].Time
		}
	}
	return -1, time.Time{}
}

var optionRe = regexp.MustCompile(`([1-9])\.\s+(Yes|No)\b`)

// optionKey is the digit of the first option that says Yes (or No) in the
// prompt; the numbering differs between prompts (a hook's ask has 1 Yes,
// 2 No; Claude Code's own Bash prompt has 4 No).
func optionKey(prompt, want string) string {
	label := "Yes"
	if want == "no" {
		label = "No"
	}
	for _, m := range optionRe.FindAllStringSubmatch(prompt, -1) {
		if m[2] == label {
			return m[1]
		}
	}
	return "\x1b" // no such option on screen: Esc cancels, which is a No
}

// promptText is a short, readable excerpt of the screen before a prompt.
func promptText(text string, at int) string {
	start := max(0, at-400)
	s := strings.Join(strings.Fields(text[start:min(len(text), at+200)]), " ")
	return strings.ToValidUTF8(s, "?")
}

func writeScreen(sp Spec, mu *sync.Mutex, out *bytes.Buffer) {
	mu.Lock()
	defer mu.Unlock()
	os.WriteFile(filepath.Join(sp.OutDir, "screen.txt"), []byte(strings.ToValidUTF8(Screen(out.Bytes()), "?")), 0o644)
}
