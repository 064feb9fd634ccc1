package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// realCodexBin is the Codex 0.169.0 of this machine's test bench.
const realCodexBin = "/opt/sentinel-ci/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"

func codexForTest(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("SENTINEL_CODEX_BIN")
	if bin == "" {
		bin = realCodexBin
	}
	if !isExecutable(bin) {
		t.Skipf("no Codex binary at %s (set SENTINEL_CODEX_BIN): Codex's own view of the trust entries is not checked", bin)
	}
	return bin
}

// TestCodexHashMatchesHookHashPy: the values codex-hook-hash.py (checked
// against Codex) printed for these handlers.
func TestCodexHashMatchesHookHashPy(t *testing.T) {
	for _, c := range []struct {
		event, json, want string
	}{
		{"PreToolUse", `{"matcher":"*","hooks":[{"type":"command","command":"/var/tmp/cxi/bin/sentinel-hook","timeout":10}]}`,
			"sha256:b32e9f546b4b65318b1e81be32a3a16b13545a4e1ed53cdeaec9dd88437520d8"},
		{"PostToolUse", `{"matcher":"*","hooks":[{"type":"command","command":"/var/tmp/cxi/bin/sentinel-hook post","timeout":10}]}`,
			"sha256:62cb0a7b28ba92011637dbe2385ac2ebd993cea95c3cbd73224080b903c5772d"},
		// No timeout: Codex's default 600 is in the hash.
		{"PreToolUse", `{"matcher":"Bash","hooks":[{"type":"command","command":"/bin/true b"}]}`,
			"sha256:60157145d04b6f85125ecf733d491d71eb7365fd22fe592c67e64750473aeff3"},
	} {
		o, err := parseSettings([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		h := o.vals["hooks"].([]any)[0].(*jobject)
		got, err := codexHandlerHash(c.event, o, h)
		if err != nil || got != c.want {
			t.Errorf("%s %s: got %s, %v; want %s", c.event, c.json, got, err, c.want)
		}
	}
	o, _ := parseSettings([]byte(`{"matcher":"*","hooks":[{"type":"command","command":"x","once":true}]}`))
	if _, err := codexHandlerHash("PreToolUse", o, o.vals["hooks"].([]any)[0].(*jobject)); err == nil {
		t.Error("a handler field whose place in the hash is unknown was hashed anyway")
	}
}

// TestCodexInstallTrustedByRealCodex: after sentinel install --codex, the
// real Codex's app-server lists both hooks as trusted and enabled, also
// behind a user's own hooks (indexes other than 0), and after uninstall
// the user's hook that moved up is still trusted.
func TestCodexInstallTrustedByRealCodex(t *testing.T) {
	bin := codexForTest(t)
	if binDir == "" {
		t.Skip("binaries not built")
	}
	home := t.TempDir()
	ch := filepath.Join(home, ".codex")
	os.MkdirAll(ch, 0o700)
	user := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/bin/true mine"}]}]}}`
	os.WriteFile(filepath.Join(ch, "hooks.json"), []byte(user), 0o600)
	env := append(os.Environ(), "HOME="+home, "CODEX_HOME=", "SENTINEL_CODEX_BIN=")
	run := func(args ...string) string {
		cmd := exec.Command(filepath.Join(binDir, "sentinel"), args...)
		cmd.Env, cmd.Dir = env, home
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sentinel %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	out := run("install", "--codex", "--codex-bin", bin)
	if !strings.Contains(out, "codex: Codex will run sentinel-hook on every tool call") {
		t.Fatalf("install did not report Codex's confirmation:\n%s", out)
	}
	doctor := func() (string, error) {
		cmd := exec.Command(filepath.Join(binDir, "sentinel"), "doctor", "--codex", "--codex-bin", bin)
		cmd.Env, cmd.Dir = append(env, "SENTINEL_HOME="+filepath.Join(home, "state")), home
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := doctor(); err != nil || !strings.Contains(out, "OK    codex confirms") {
		t.Errorf("doctor --codex after install (%v):\n%s", err, out)
	}
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	status := func() map[string]codexListedHook {
		l, err := listCodexHooks(bin, home)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]codexListedHook{}
		for _, h := range l.Hooks {
			m[h.Command] = h
		}
		return m
	}
	hook := filepath.Join(binDir, "sentinel-hook")
	got := status()
	pre, post := got[hook], got[hook+" post"]
	if pre.TrustStatus != "trusted" || !pre.Enabled || !strings.HasSuffix(pre.Key, ":pre_tool_use:1:0") {
		t.Errorf("PreToolUse as Codex sees it: %+v", pre)
	}
	if post.TrustStatus != "trusted" || !post.Enabled || !strings.HasSuffix(post.Key, ":post_tool_use:0:0") {
		t.Errorf("PostToolUse as Codex sees it: %+v", post)
	}
	if m := got["/bin/true mine"]; m.TrustStatus != "untrusted" {
		t.Errorf("the user's own hook became %q: install trusts only its own", m.TrustStatus)
	}
	// The user's hook after sentinel's, trusted as Codex's review would.
	o, _, _ := readSettings(filepath.Join(ch, "hooks.json"))
	hooks := o.vals["hooks"].(*jobject)
	g, _ := parseSettings([]byte(`{"matcher":"*","hooks":[{"type":"command","command":"/bin/true after"}]}`))
	hooks.set("PreToolUse", append(hooks.vals["PreToolUse"].([]any), g))
	if _, err := writeSettings(filepath.Join(ch, "hooks.json"), o, true); err != nil {
		t.Fatal(err)
	}
	after := status()["/bin/true after"]
	cfg, _ := os.ReadFile(filepath.Join(ch, "config.toml"))
	cfg = append(cfg, []byte("\n[hooks.state."+tomlQuote(after.Key)+"]\ntrusted_hash = "+tomlQuote(after.CurrentHash)+"\n")...)
	os.WriteFile(filepath.Join(ch, "config.toml"), cfg, 0o600)
	if s := status()["/bin/true after"]; s.TrustStatus != "trusted" || !strings.HasSuffix(s.Key, ":pre_tool_use:2:0") {
		t.Fatalf("setup: %+v", s)
	}
	// One byte of sentinel's command changed: Codex says modified, doctor fails on both counts.
	hj, _ := os.ReadFile(filepath.Join(ch, "hooks.json"))
	os.WriteFile(filepath.Join(ch, "hooks.json"), []byte(strings.Replace(string(hj), hook+`"`, hook+` "`, 1)), 0o600)
	if s := status()[hook+" "]; s.TrustStatus != "modified" {
		t.Fatalf("setup: the changed hook is %+v", s)
	}
	out, err := doctor()
	if err == nil || !strings.Contains(out, "is stale") || !strings.Contains(out, "FAIL  codex confirms") || !strings.Contains(out, "modified") {
		t.Errorf("doctor --codex with a stale hash (%v):\n%s", err, out)
	}
	os.WriteFile(filepath.Join(ch, "hooks.json"), hj, 0o600)
	run("uninstall", "--codex")
	got = status()
	if _, ok := got[hook]; ok {
		t.Errorf("sentinel-hook still listed after uninstall: %+v", got[hook])
	}
	if s := got["/bin/true after"]; s.TrustStatus != "trusted" || !strings.HasSuffix(s.Key, ":pre_tool_use:1:0") {
		t.Errorf("the user's hook that moved up lost its trust: %+v", s)
	}
}
