package protocol_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

// e2e runs the real binaries in a private HOME.
type e2e struct {
	t   *testing.T
	bin string
	env []string
	dir string
}

func (x *e2e) run(stdin string, name string, args ...string) (stdout, stderr string, code int) {
	x.t.Helper()
	cmd := exec.Command(filepath.Join(x.bin, name), args...)
	cmd.Env, cmd.Dir = x.env, x.dir
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		x.t.Fatalf("%s %v: %v", name, args, err)
	}
	return o.String(), e.String(), code
}

// ok runs a sentinel command that must succeed.
func (x *e2e) ok(args ...string) string {
	x.t.Helper()
	out, errOut, code := x.run("", "sentinel", args...)
	if code != 0 {
		x.t.Fatalf("sentinel %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	return out
}

// hook sends one PreToolUse payload and returns the decision ("" = allow).
func (x *e2e) hook(id, mode, command string) string {
	x.t.Helper()
	p, _ := json.Marshal(map[string]any{"session_id": "e2e", "cwd": "/home/dev/proj", "permission_mode": mode,
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]string{"command": command},
		"tool_use_id": id, "transcript_path": "/home/dev/.claude/projects/-home-dev-proj/e2e.jsonl"})
	out, errOut, code := x.run(string(p), "sentinel-hook")
	if code != 0 {
		x.t.Fatalf("sentinel-hook exit %d: %s", code, errOut)
	}
	if strings.TrimSpace(out) == "" {
		return "allow"
	}
	var resp struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		x.t.Fatalf("hook answer %q: %v", out, err)
	}
	return resp.HookSpecificOutput.PermissionDecision
}

// TestEndToEndReplayOfSealedBundle builds a register through the real hook
// binary, grades it, seals it in a test Rekor built from Rekor's own code,
// exports a bundle and replays it: with the shipped catalog the must-keep
// gate holds; with the reset rule switched off by operator configuration
// it fails and names the entry.
func TestEndToEndReplayOfSealedBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator),
		"github.com/sentinel-guard/sentinel/cmd/sentinel", "github.com/sentinel-guard/sentinel/cmd/sentinel-hook")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	x := &e2e{t: t, bin: bin, dir: work, env: append(os.Environ(), "SENTINEL_PASSWORD=e2e-password",
		"HOME="+filepath.Join(work, "home"), "SENTINEL_HOME="+filepath.Join(work, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "XDG_STATE_HOME="+filepath.Join(work, "xstate"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(work, "home", ".claude"), "CLAUDE_PROJECT_DIR=", "SENTINEL_UNATTENDED=")}
	log := rekortest.New()
	defer log.Close()
	rekorKey := filepath.Join(work, "rekor.pub")
	os.WriteFile(rekorKey, log.PublicKeyPEM(), 0o644)

	// The register, through the real hook. Entries 1 and 2: the two
	// unattended hits. 3-5: data-only calls the regex-era guards flagged
	// (allowed now). 6-7: attended asks a careful operator calls false.
	steps := []struct{ id, mode, cmd, want string }{
		{"toolu_e1", "bypassPermissions", "git reset --hard origin/main", "deny"},
		{"toolu_e2", "bypassPermissions", "git stash drop", "deny"},
		{"toolu_e3", "default", `git commit -m "docs: never run git reset --hard on main"`, "allow"},
		{"toolu_e4", "default", `grep -rn "rm -rf" docs/`, "allow"},
		{"toolu_e5", "default", `echo "git stash drop loses work" >> NOTES.md`, "allow"},
		{"toolu_e6", "default", "env", "ask"},
		{"toolu_e7", "default", "git checkout -- README.md", "ask"},
	}
	for _, s := range steps {
		if got := x.hook(s.id, s.mode, s.cmd); got != s.want {
			t.Fatalf("%q (%s): %s, want %s", s.cmd, s.mode, got, s.want)
		}
	}
	x.ok("grade", "1", "true", "--note", "hard reset to the remote, unattended")
	x.ok("grade", "2", "true", "--note", "stash drop, unattended")
	x.ok("grade", "6", "false", "--note", "only PATH was printed")
	x.ok("grade", "7", "false", "--note", "reverting my own typo")
	if _, errOut, code := x.run("", "sentinel", "grade", "3", "false"); code == 0 || !strings.Contains(errOut, "not a flag") {
		t.Fatalf("grading an allow: exit %d, %s", code, errOut)
	}

	// Seal in the test Rekor, export everything, verify the bundle.
	// A stranger pins the operator by the fingerprint keygen printed.
	fp := regexp.MustCompile(`SHA256:[0-9a-f]{64}`).FindString(x.ok("keygen"))
	if fp == "" {
		t.Fatal("keygen printed no fingerprint")
	}
	x.ok("seal", "--rekor-url", log.URL)
	bundleAll := filepath.Join(work, "all.json")
	x.ok("export", "--out", bundleAll, "--disclose", "all")
	x.ok("verify", "--bundle", bundleAll, "--rekor-key", rekorKey, "--operator-fingerprint", fp)

	keep := x.ok("protocol", "keep", "1", "2")
	keepFile := filepath.Join(work, "keep.txt")
	os.WriteFile(keepFile, []byte(keep), 0o644)

	// 1. The shipped catalog: nothing changes, the gate holds.
	out := x.ok("replay", "--rekor-key", rekorKey, "--operator-fingerprint", fp, "--bundle", bundleAll, "--must-keep", keepFile, "--json")
	var rep struct {
		Replayed, NotReplayable, Changed int
		Gate                             string
		SelfConcordanceBefore            *float64 `json:"self_concordance_before"`
		MustKeep                         []struct {
			Seq    int64
			Status string
		} `json:"must_keep"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Replayed != 7 || rep.Changed != 0 || rep.Gate != "held" || len(rep.MustKeep) != 2 ||
		rep.SelfConcordanceBefore == nil || *rep.SelfConcordanceBefore != 0.5 {
		t.Fatalf("shipped catalog replay: %s", out)
	}

	// 2. The reset rule switched off by operator configuration: exit 1,
	// the entry named, whatever else improved.
	cand := filepath.Join(work, "candidate.toml")
	os.WriteFile(cand, []byte(`disable = ["GIT-RESET-HARD"]`+"\n"), 0o644)
	out, errOut, code := x.run("", "sentinel", "replay", "--rekor-key", rekorKey, "--operator-fingerprint", fp, "--bundle", bundleAll, "--must-keep", keepFile, "--config", cand)
	if code != 1 || !strings.Contains(errOut, "entry 1 (Bash GIT-RESET-HARD, unattended) is no longer denied: deny -> allow") ||
		strings.Contains(errOut, "entry 2") {
		t.Fatalf("candidate replay: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "graded true flags lost: 1 (entry 1)") {
		t.Fatalf("candidate replay output:\n%s", out)
	}

	// 3. A bundle that withholds entry 1's input: it cannot be re-decided,
	// so the gate cannot hold.
	bundleSome := filepath.Join(work, "some.json")
	x.ok("export", "--out", bundleSome, "--disclose", "2-7")
	_, errOut, code = x.run("", "sentinel", "replay", "--rekor-key", rekorKey, "--operator-fingerprint", fp, "--bundle", bundleSome, "--must-keep", keepFile)
	if code != 1 || !strings.Contains(errOut, "entry 1 (Bash GIT-RESET-HARD, unattended) is a commitment only") {
		t.Fatalf("commitment-only replay: exit %d\n%s", code, errOut)
	}

	// 4. A bundle whose disclosed input was edited after sealing is refused.
	raw, _ := os.ReadFile(bundleAll)
	tampered := filepath.Join(work, "tampered.json")
	edited := bytes.Replace(raw, []byte("Z2l0IHN0YXNoIGRyb3"), []byte("Z2l0IHN0YXNoIGxpc3"), 1)
	if bytes.Equal(edited, raw) {
		t.Fatal("the test's edit did not change the bundle")
	}
	os.WriteFile(tampered, edited, 0o644)
	if _, errOut, code = x.run("", "sentinel", "replay", "--rekor-key", rekorKey, "--operator-fingerprint", fp, "--bundle", tampered); code != 1 ||
		!strings.Contains(errOut, "does not verify, so nothing of it is read: entry 2: commitment does not match its input") {
		t.Fatalf("tampered bundle: exit %d\n%s", code, errOut)
	}

	// 5. The protocol file is sealed before its reading and check says so.
	proto := filepath.Join(work, "protocol.toml")
	var mk strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(keep), "\n") {
		f := strings.Fields(line)
		mk.WriteString("[[must_keep]]\nseq = " + f[0] + "\ncommitment = \"" + f[1] + "\"\n\n")
	}
	os.WriteFile(proto, []byte("version = 1\ncatalog_version = \"x\"\ncatalog_hash = \"y\"\n\n"+mk.String()+
		"[[prediction]]\nid = \"sc\"\nmetric = \"self_concordance\"\ncomparison = \"below\"\nvalue = 0.6\nreading = \"2099-12-15\"\n"), 0o644)
	x.ok("protocol", "seal", proto, "--rekor-url", log.URL)
	out = x.ok("protocol", "check", proto, "--at", "today", "--rekor-key", rekorKey)
	if !strings.Contains(out, "seal: sealed in Rekor entry") || !strings.Contains(out, "held 1, missed 0") {
		t.Fatalf("protocol check:\n%s", out)
	}
	// Anyone can check the predictions on a bundle of fields without inputs.
	none := filepath.Join(work, "none.json")
	x.ok("export", "--out", none, "--disclose", "none", "--fields", "all")
	out = x.ok("protocol", "check", proto, "--at", "today", "--bundle", none, "--json", "--rekor-key", rekorKey, "--operator-fingerprint", fp)
	if !strings.Contains(out, `"held": 1`) || !strings.Contains(out, `"value": 0.5`) || !strings.Contains(out, `"preregistered": true`) {
		t.Fatalf("protocol check on a bundle:\n%s", out)
	}
	// The protocol file is itself a must-keep file.
	x.ok("replay", "--rekor-key", rekorKey, "--operator-fingerprint", fp, "--bundle", bundleAll, "--must-keep", proto)
}
