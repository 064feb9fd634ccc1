package codex

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

// defaultCodexBin is where .ci/run installs Codex (npm, pinned): the
// native binary inside the package.
const defaultCodexBin = "/opt/sentinel-ci/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"

// CodexBinEnv overrides where the codex binary is.
const CodexBinEnv = "SENTINEL_CODEX_BIN"

// nobody is the unprivileged user Codex runs as.
const nobody = e2eutil.Nobody

// env is what every scenario shares: the codex binary, its version and
// the sentinel binaries built once.
type env struct {
	codex, version string
	sentinel, hook string
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
		return nil, "the Codex suite runs on Linux only (network namespaces, setpriv)", nil
	}
	bin := os.Getenv(CodexBinEnv)
	if bin == "" {
		bin = defaultCodexBin
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Sprintf("no Codex binary at %s (set %s, or run .ci/run, which installs @openai/codex@0.169.0 from npm there)", bin, CodexBinEnv), nil
	}
	if why := e2eutil.NamespaceSkip("Codex"); why != "" {
		return nil, why, nil
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return nil, "", fmt.Errorf("%s --version: %v", bin, err)
	}
	// "codex-cli 0.169.0"
	version := strings.TrimPrefix(strings.TrimSpace(string(out)), "codex-cli ")
	dir, err := e2eutil.BuildSentinel("sentinel-e2e-codex-bin-")
	buildDir = dir
	if err != nil {
		return nil, "", err
	}
	return &env{codex: bin, version: version, sentinel: filepath.Join(dir, "sentinel"), hook: filepath.Join(dir, "sentinel-hook")}, "", nil
}
