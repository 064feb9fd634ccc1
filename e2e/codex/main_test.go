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

// SourceEnv names another checkout of sentinel to build the binaries from
// (to try a branch's hooks against the suite); default this module.
const SourceEnv = "SENTINEL_E2E_SRC"

// nobody is the unprivileged user Codex runs as.
const nobody = 65534

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
	if os.Geteuid() != 0 {
		return nil, "not root: the suite needs unshare -n for a loopback-only network namespace and setpriv to run Codex as an unprivileged user", nil
	}
	for _, tool := range []string{"unshare", "setpriv", "ip", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Sprintf("%s is not installed (util-linux, iproute2, git)", tool), nil
		}
	}
	if out, err := exec.Command("unshare", "-n", "ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("cannot make a network namespace here (unshare -n: %v: %s)", err, strings.TrimSpace(string(out))), nil
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return nil, "", fmt.Errorf("%s --version: %v", bin, err)
	}
	// "codex-cli 0.169.0"
	version := strings.TrimPrefix(strings.TrimSpace(string(out)), "codex-cli ")
	dir, err := os.MkdirTemp("", "sentinel-e2e-codex-bin-")
	if err != nil {
		return nil, "", err
	}
	buildDir = dir
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, "", err
	}
	root := os.Getenv(SourceEnv)
	if root == "" {
		if root, err = moduleRoot(); err != nil {
			return nil, "", err
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
		return nil, "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return &env{codex: bin, version: version, sentinel: filepath.Join(dir, "sentinel"), hook: filepath.Join(dir, "sentinel-hook")}, "", nil
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}
