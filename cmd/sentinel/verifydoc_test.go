package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docBlocks are the shell blocks of a doc marked "# run by NAME" on their
// first line, in order.
func docBlocks(t *testing.T, doc, name string) []string {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
		if strings.HasPrefix(m[1], "# run by "+name+"\n") {
			out = append(out, m[1])
		}
	}
	return out
}

// TestVerifyDocAsWritten runs docs/verify-a-register.md's marked blocks
// (rekor-cli with the log's key pinned, cosign with the exported Sigstore
// bundle) as written, against a register sealed in the real rekor-server,
// so the doc cannot drift; then once more with the wrong log key pinned,
// which must fail (the pin is what rekor-cli verifies against).
func TestVerifyDocAsWritten(t *testing.T) {
	blocks := docBlocks(t, filepath.Join("..", "..", "docs", "verify-a-register.md"), "TestVerifyDocAsWritten")
	if len(blocks) != 2 {
		t.Fatalf("want the doc's 2 blocks marked for this test, found %d", len(blocks))
	}
	up, _ := realRekor()
	if !realRekorBuilt() {
		t.Skip("the real rekor-server is not built here (bash " + up + " builds it, about 4.5 minutes; .ci/run does)")
	}
	for _, tool := range []string{"rekor-cli", "cosign"} {
		if ciTool(tool) == "" {
			t.Skip(tool + " is not on PATH nor in " + ciToolDir + " (.ci/run installs it)")
		}
	}
	for _, tool := range []string{"jq", "openssl", "sha256sum", "base64"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " is not on PATH")
		}
	}
	dir := t.TempDir()
	env := append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "SENTINEL_HOME="+filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_STATE_HOME="+filepath.Join(dir, "xstate"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(dir, "home", ".claude"), "SENTINEL_PASSWORD=doc-password",
		"PATH="+binDir+string(filepath.ListSeparator)+os.Getenv("PATH")+string(filepath.ListSeparator)+ciToolDir)
	run := func(stdin, name string, args ...string) string {
		t.Helper()
		if _, err := os.Stat(filepath.Join(binDir, name)); err == nil {
			name = filepath.Join(binDir, name)
		}
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		if stdin != "" {
			f, err := os.Open(stdin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("", "bash", up, filepath.Join(dir, "log.pub"))
	fp := regexp.MustCompile(`SHA256:[0-9a-f]{64}`).FindString(run("", "sentinel", "keygen"))
	payloads := filepath.Join("..", "..", "testdata", "payloads")
	for _, p := range []string{"bash_rm_rf_home.json", "bash_npm_test.json"} {
		abs, _ := filepath.Abs(filepath.Join(payloads, p))
		run(abs, "sentinel-hook")
	}
	const url = "http://127.0.0.1:3000"
	run("", "sentinel", "seal", "--rekor-url", url)
	run("", "sentinel", "export", "--out", "audit.json", "--sigstore", "sig", "--rekor-key", filepath.Join(dir, "log.pub"))
	env = append(env, "FINGERPRINT="+fp, "REKOR_URL="+url)
	script := "set -euo pipefail\n" + strings.Join(blocks, "\n")
	out := run("", "bash", "-c", script)
	// Each command exited 0 (set -e); rekor-cli verify printed the
	// inclusion proof it checked, cosign its verdict.
	for _, want := range []string{"Expected Root Hash: ", "Found matching entries", "Verified OK"} {
		if !strings.Contains(out, want) {
			t.Errorf("the doc's commands did not print %q:\n%s", want, out)
		}
	}
	// The same block with the public-good key pinned must fail: rekor-cli
	// checks the log's signatures against the pin, not the server's word.
	good, err := filepath.Abs(filepath.Join("..", "..", "seal", "rekor-public-good.pub"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	if err := os.Rename(filepath.Join(dir, "log.pub"), filepath.Join(dir, "real-log.pub")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	if err := os.WriteFile(filepath.Join(dir, "log.pub"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd.Env = env
	bad, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(bad), "Verified OK") {
		t.Fatalf("the doc's rekor-cli commands passed with the wrong log key pinned:\n%s", bad)
	}
	if !strings.Contains(string(bad), "did not verify") && !strings.Contains(string(bad), "verif") {
		t.Errorf("with the wrong log key pinned, rekor-cli failed for another reason:\n%s", bad)
	}
}
