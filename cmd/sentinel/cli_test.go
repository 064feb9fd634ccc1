package main

// The CLI's conventions, checked over the whole command tree in-process:
// one exit-code table (docs/cli.md prints it), one way to report errors
// (under --json one JSON object on stdout), the same code for the same case
// in every command.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// isolate points every path sentinel reads at an empty temporary tree.
func isolate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for k, v := range map[string]string{
		"HOME": filepath.Join(dir, "home"), "SENTINEL_HOME": filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "xstate"),
		"CLAUDE_CONFIG_DIR": filepath.Join(dir, "home", ".claude"), "CLAUDE_PROJECT_DIR": dir,
		"SENTINEL_UNATTENDED": "", "SENTINEL_REKOR_URL": "", "SENTINEL_REKOR_PUBLIC_KEY": "",
	} {
		t.Setenv(k, v)
	}
	os.MkdirAll(filepath.Join(dir, "home"), 0o755)
	t.Chdir(dir)
	return dir
}

type result struct {
	exit           int
	stdout, stderr string
}

func runCLI(args ...string) result {
	var out, errb bytes.Buffer
	n := run(args, &out, &errb)
	return result{n, out.String(), errb.String()}
}

// jsonErr parses stdout as exactly one JSON error object.
func jsonErr(t *testing.T, r result, args []string) jsonError {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var je jsonError
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("sentinel %s: stdout is not JSON: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, r.stdout, r.stderr)
	}
	if dec.More() {
		t.Fatalf("sentinel %s: more than one JSON value on stdout: %s", strings.Join(args, " "), r.stdout)
	}
	b, _ := json.Marshal(raw)
	json.Unmarshal(b, &je)
	if je.Error == "" || je.Code == "" || je.Exit != r.exit {
		t.Fatalf("sentinel %s: want {error, code, exit=%d}, got %s", strings.Join(args, " "), r.exit, r.stdout)
	}
	return je
}

func TestNoRegisterIsOneCode(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{
		{"log"}, {"log", "--json"}, {"census"}, {"census", "--json"}, {"verify"}, {"verify", "--json"},
		{"grades"}, {"grades", "--json"}, {"replay"}, {"replay", "--json"}, {"outcomes"}, {"outcomes", "--json"},
		{"grade", "1", "true"}, {"grade", "1", "true", "--json"}, {"protocol", "keep", "1"},
		{"export", "--out", "x.json"}, {"export", "--out", "x.json", "--json"},
	} {
		r := runCLI(args...)
		if r.exit != exitMissing || !strings.Contains(r.stderr, "no register at") {
			t.Errorf("sentinel %s: exit %d, stderr %q; want %d and 'no register at'", strings.Join(args, " "), r.exit, r.stderr, exitMissing)
			continue
		}
		if args[len(args)-1] == "--json" {
			if je := jsonErr(t, r, args); je.Code != "no_register" {
				t.Errorf("sentinel %s: code %q, want no_register", strings.Join(args, " "), je.Code)
			}
		} else if r.stdout != "" {
			t.Errorf("sentinel %s: stdout %q, want nothing", strings.Join(args, " "), r.stdout)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	isolate(t)
	for _, tc := range []struct {
		args []string
		code string
	}{
		{[]string{"protocol", "foo"}, "unknown_command"},
		{[]string{"protocol", "foo", "--json"}, "unknown_command"},
		{[]string{"nosuch"}, "unknown_command"},
		{[]string{"nosuch", "--json"}, "unknown_command"},
		{[]string{"log", "--no-such-flag", "--json"}, "usage"},
		{[]string{"log", "-n", "-1", "--json"}, "usage"},
		{[]string{"grade", "x", "true", "--json"}, "usage"},
		{[]string{"verify", "extra", "--json"}, "usage"},
		{[]string{"check", "--json"}, "usage"},
	} {
		r := runCLI(tc.args...)
		if r.exit != exitUsage {
			t.Errorf("sentinel %s: exit %d, want %d (stderr %q)", strings.Join(tc.args, " "), r.exit, exitUsage, r.stderr)
			continue
		}
		if tc.args[len(tc.args)-1] == "--json" {
			if je := jsonErr(t, r, tc.args); je.Code != tc.code {
				t.Errorf("sentinel %s: code %q, want %q", strings.Join(tc.args, " "), je.Code, tc.code)
			}
		}
	}
}

// Every group without a subcommand prints its help and exits 0; with an
// unknown one it is a usage error.
func TestGroupsRejectUnknownSubcommands(t *testing.T) {
	isolate(t)
	var groups []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			if s.HasSubCommands() {
				groups = append(groups, s)
			}
			walk(s)
		}
	}
	walk(newRootCmd())
	if len(groups) == 0 {
		t.Fatal("no command groups found")
	}
	for _, g := range groups {
		path := strings.Fields(g.CommandPath())[1:]
		if r := runCLI(path...); r.exit != 0 || !strings.Contains(r.stdout, "Available Commands") {
			t.Errorf("sentinel %s: exit %d, want its help and 0", strings.Join(path, " "), r.exit)
		}
		if r := runCLI(append(path, "bogus")...); r.exit != exitUsage {
			t.Errorf("sentinel %s bogus: exit %d, want %d", strings.Join(path, " "), r.exit, exitUsage)
		}
	}
}

// The docs print the table the code uses.
func TestExitCodeTableDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- error-codes: generated from cmd/sentinel/errors.go -->\n", "<!-- end error-codes -->"
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("docs/cli.md lacks the %q ... %q block", begin, end)
	}
	if got, want := s[i+len(begin):j], errorCodeTable(); got != want {
		t.Errorf("docs/cli.md's error-code table is stale; want:\n%s", want)
	}
}

func errorCodeTable() string {
	var b strings.Builder
	b.WriteString("| exit | code | meaning |\n|---|---|---|\n")
	for _, c := range errorCodes {
		fmt.Fprintf(&b, "| %d | `%s` | %s |\n", c.Exit, c.Code, c.Meaning)
	}
	return b.String()
}

// Every command that prints a report a machine reads has --json.
func TestJSONFlags(t *testing.T) {
	want := []string{"check", "explain", "rules", "doctor", "log", "grade", "grades", "outcomes", "replay",
		"seal", "verify", "census", "protocol check", "protocol seal", "version", "keygen", "install", "uninstall", "export"}
	root := newRootCmd()
	for _, name := range want {
		c, _, err := root.Find(strings.Fields(name))
		if err != nil || c.Name() != strings.Fields(name)[len(strings.Fields(name))-1] {
			t.Errorf("no command %q", name)
			continue
		}
		if c.Flags().Lookup("json") == nil {
			t.Errorf("sentinel %s has no --json", name)
		}
	}
}

func TestVersion(t *testing.T) {
	r := runCLI("version", "--json")
	var v versionInfo
	if r.exit != 0 || json.Unmarshal([]byte(r.stdout), &v) != nil {
		t.Fatalf("version --json: exit %d, %q", r.exit, r.stdout)
	}
	if v.Version == "" || v.CatalogVersion == "" || !strings.HasPrefix(v.Go, "go") || len(v.CatalogHash) != 64 {
		t.Errorf("version --json incomplete: %+v", v)
	}
	// The commit is always named: "unknown" (from none) only without a stamp.
	if v.Commit == "" || (v.Commit == "unknown") != (v.CommitFrom == "none") {
		t.Errorf("version --json commit %q from %q", v.Commit, v.CommitFrom)
	}
}

// The Makefile's -ldflags stamp names the commit where Go's VCS stamp is off.
func TestVersionCommitFromLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "sentinel")
	out, err := exec.Command("go", "build", "-buildvcs=false", "-ldflags",
		"-X github.com/sentinel-guard/sentinel/internal/version.Commit=0123456789abcdef0123456789abcdef01234567", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	js, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v versionInfo
	json.Unmarshal(js, &v)
	if v.Commit != "0123456789abcdef0123456789abcdef01234567" || v.CommitFrom != "ldflags" {
		t.Errorf("commit %q from %q", v.Commit, v.CommitFrom)
	}
	bare := filepath.Join(t.TempDir(), "sentinel")
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bare, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	js, _ = exec.Command(bare, "version", "--json").Output()
	v = versionInfo{}
	json.Unmarshal(js, &v)
	if v.Commit != "unknown" || v.CommitFrom != "none" {
		t.Errorf("without a stamp: commit %q from %q, want unknown from none", v.Commit, v.CommitFrom)
	}
}

// The command install --project commits runs through /bin/sh -c as Claude
// Code runs it: found on PATH it judges the call; missing, it blocks.
func TestPortableHookCommand(t *testing.T) {
	payload, err := os.ReadFile(filepath.Join("..", "..", "testdata", "payloads", "bash_rm_rf_home.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	hook := preHook.command("sentinel-hook")
	if strings.Contains(hook, "/") && !strings.HasPrefix(hook, "command -v") {
		t.Fatalf("portable command names a path: %s", hook)
	}
	for _, tc := range []struct {
		path     string
		exit     int
		contains string
	}{
		{binDir + ":/usr/bin:/bin", 0, `"permissionDecision":"deny"`},
		{"/usr/bin:/bin", 2, "sentinel-hook is not on PATH"},
	} {
		c := exec.Command("/bin/sh", "-c", hook)
		c.Env = append(os.Environ(), "PATH="+tc.path, "SENTINEL_HOME="+filepath.Join(dir, "state"))
		c.Stdin = bytes.NewReader(payload)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		got := 0
		if ee, ok := err.(*exec.ExitError); ok {
			got = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if got != tc.exit || !strings.Contains(strings.ReplaceAll(out.String()+errb.String(), " ", ""), strings.ReplaceAll(tc.contains, " ", "")) {
			t.Errorf("PATH=%s: exit %d, stdout %q, stderr %q; want %d and %q", tc.path, got, out.String(), errb.String(), tc.exit, tc.contains)
		}
	}
	if !preHook.recognises(hook, "") {
		t.Errorf("install does not recognise its own portable command")
	}
}

// go.mod asks for Go 1.26.0, so that every Go 1.26.x builds sentinel with
// GOTOOLCHAIN=local (the README says "Go 1.26"); go mod tidy writes 1.26
// as 1.26.0. A toolchain line would make older 1.26 releases download one.
func TestGoLineAcceptsEvery126(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "go ") && line != "go 1.26.0" && line != "go 1.26" {
			t.Errorf("go.mod: %q, want go 1.26.0", line)
		}
		if strings.HasPrefix(line, "toolchain ") {
			t.Errorf("go.mod: %q: any 1.26.x must build without downloading a toolchain", line)
		}
	}
}

// Every `bin/sentinel ...` line of the README is run, verbatim, by
// testdata/script/readme.txtar.
func TestREADMECommandsRun(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("..", "..", "testdata", "script", "readme.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(readme), "\n") {
		cmd, ok := strings.CutPrefix(line, "bin/sentinel ")
		if !ok {
			continue
		}
		if i := strings.Index(cmd, " #"); i >= 0 {
			cmd = cmd[:i]
		}
		cmd = "sentinel " + strings.TrimSpace(cmd)
		n++
		if !strings.Contains(string(script), cmd) {
			t.Errorf("README runs %q, testdata/script/readme.txtar does not", cmd)
		}
	}
	if n < 10 {
		t.Errorf("found only %d sentinel commands in README.md", n)
	}
}
