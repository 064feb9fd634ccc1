package claudecode

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/sentinel-guard/sentinel/e2e/e2eutil"
)

func TestMain(m *testing.M) {
	// Re-executed inside the namespace: be the runner, nothing else.
	if spec := os.Getenv(RunnerEnv); spec != "" {
		if err := RunRunner(spec); err != nil {
			fmt.Fprintln(os.Stderr, "runner:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// defaultClaudeBin is where .ci/run installs Claude Code (npm, pinned).
const defaultClaudeBin = "/opt/sentinel-ci/claude/node_modules/@anthropic-ai/claude-code-linux-x64/claude"

// ClaudeBinEnv overrides where the claude binary is.
const ClaudeBinEnv = "SENTINEL_CLAUDE_BIN"

// SourceEnv names another checkout of sentinel to build the binaries from.
const SourceEnv = e2eutil.SourceEnv

// nobody is the unprivileged user Claude Code runs as.
const nobody = e2eutil.Nobody

// env is what every scenario shares: the claude binary, its version and
// the sentinel binaries built once.
type env struct {
	claude, version string
	sentinel, hook  string
}

var (
	envOnce  sync.Once
	envVal   *env
	envSkip  string
	envErr   error
	buildDir string
)

// need returns the shared environment, or skips the test with the reason
// this machine cannot run the suite.
func need(t *testing.T) *env {
	t.Helper()
	envOnce.Do(func() { envVal, envSkip, envErr = setup() })
	if envErr != nil {
		t.Fatal(envErr)
	}
	if envSkip != "" {
		t.Skip(envSkip)
	}
	return envVal
}

func setup() (*env, string, error) {
	if runtime.GOOS != "linux" {
		return nil, "the Claude Code suite runs on Linux only (network namespaces, setpriv)", nil
	}
	bin := os.Getenv(ClaudeBinEnv)
	if bin == "" {
		bin = defaultClaudeBin
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Sprintf("no Claude Code binary at %s (set %s, or run .ci/run, which installs @anthropic-ai/claude-code@2.1.328 from npm there)", bin, ClaudeBinEnv), nil
	}
	if why := e2eutil.NamespaceSkip("Claude Code"); why != "" {
		return nil, why, nil
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return nil, "", fmt.Errorf("%s --version: %v", bin, err)
	}
	version, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	dir, err := e2eutil.BuildSentinel("sentinel-e2e-bin-")
	buildDir = dir
	if err != nil {
		return nil, "", err
	}
	return &env{claude: bin, version: version, sentinel: filepath.Join(dir, "sentinel"), hook: filepath.Join(dir, "sentinel-hook")}, "", nil
}
