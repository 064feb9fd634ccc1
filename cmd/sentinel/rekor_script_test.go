package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

// Test Rekor logs by script: `rekor start` serves Rekor's v1 API from
// seal/rekortest (Rekor's own code, a test log key) for the rest of the
// script, sets REKOR_URL and writes the log key to $WORK/rekor.pub
// (REKOR_PUBKEY). `rekor fail` makes it answer 500 to everything, `rekor
// ok` heals it; `rekor noindex` turns its search index off (501); `rekor
// relay` starts a relay in front of it (RELAY_URL) and `rekor drop UUID`
// makes the relay leave that entry out of search answers. `rekor real`
// uses the real rekor-server instead (rekorReal).
var (
	scriptLogsMu sync.Mutex
	scriptLogs   = map[*testscript.TestScript]*rekortest.Log{}
	scriptRelays = map[*testscript.TestScript]*rekortest.Relay{}
)

// ciToolDir is where .ci/run installs cosign and rekor-cli (cached across
// runs: CI runs on the same machine).
const ciToolDir = "/opt/sentinel-ci/bin"

// ciTool finds a tool on PATH or in ciToolDir ("" when neither has it).
func ciTool(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	p := filepath.Join(ciToolDir, name)
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return p
	}
	return ""
}

// realRekor is the real rekor-server's scripts (rekor-server v1.5.4 on
// Trillian, loopback only): $SENTINEL_REAL_REKOR, else the machine's shared
// copy. realRekorDir is where up.sh keeps it ($REAL_REKOR_DIR).
func realRekor() (up, dir string) {
	tools := os.Getenv("SENTINEL_REAL_REKOR")
	if tools == "" {
		tools = "/work/shared/tools/real-rekor"
	}
	dir = os.Getenv("REAL_REKOR_DIR")
	if dir == "" {
		dir = "/tmp/real-rekor"
	}
	return filepath.Join(tools, "up.sh"), dir
}

// realRekorBuilt: the real rekor-server can be started here (its scripts
// and its binaries exist; the first build takes minutes: .ci/run does it).
func realRekorBuilt() bool {
	up, dir := realRekor()
	_, err1 := os.Stat(up)
	_, err2 := os.Stat(filepath.Join(dir, "bin", "rekor-server"))
	return err1 == nil && err2 == nil
}

// rekorReal is `rekor real`: the real rekor-server on loopback, started by
// up.sh if it is not running (scripts guard it with [!realrekor] skip). The
// server is shared and never stopped by a script; its key is read now (a
// restart gives it a new one).
func rekorReal(ts *testscript.TestScript) {
	up, dir := realRekor()
	pub := filepath.Join(ts.Getenv("WORK"), "rekor.pub")
	cmd := exec.Command("bash", up, pub)
	cmd.Env = append(os.Environ(), "REAL_REKOR_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		ts.Fatalf("rekor real: %s: %v\n%s", up, err, out)
	}
	ts.Setenv("REKOR_URL", "http://127.0.0.1:3000")
	ts.Setenv("REKOR_PUBKEY", pub)
}

func cmdRekor(ts *testscript.TestScript, neg bool, args []string) {
	if !neg && len(args) == 1 && args[0] == "real" {
		rekorReal(ts)
		return
	}
	if neg || len(args) < 1 || len(args) > 2 || (len(args) == 2) != (args[0] == "drop") {
		ts.Fatalf("usage: rekor start|fail|ok|noindex|relay|drop UUID")
	}
	scriptLogsMu.Lock()
	defer scriptLogsMu.Unlock()
	log := scriptLogs[ts]
	switch args[0] {
	case "start":
		if log != nil {
			ts.Fatalf("rekor: already started")
		}
		log = rekortest.New()
		scriptLogs[ts] = log
		ts.Defer(func() {
			log.Close()
			scriptLogsMu.Lock()
			delete(scriptLogs, ts)
			scriptLogsMu.Unlock()
		})
		pub := filepath.Join(ts.Getenv("WORK"), "rekor.pub")
		if err := os.WriteFile(pub, log.PublicKeyPEM(), 0o644); err != nil {
			ts.Fatalf("rekor: %v", err)
		}
		ts.Setenv("REKOR_URL", log.URL)
		ts.Setenv("REKOR_PUBKEY", pub)
	case "fail", "ok":
		if log == nil {
			ts.Fatalf("rekor: not started")
		}
		log.Fail.Store(args[0] == "fail")
	case "noindex":
		if log == nil {
			ts.Fatalf("rekor: not started")
		}
		log.NoIndex.Store(true)
	case "relay":
		if log == nil {
			ts.Fatalf("rekor: not started")
		}
		rl := rekortest.NewRelay(log.URL)
		scriptRelays[ts] = rl
		ts.Defer(func() {
			rl.Close()
			scriptLogsMu.Lock()
			delete(scriptRelays, ts)
			scriptLogsMu.Unlock()
		})
		ts.Setenv("RELAY_URL", rl.URL)
	case "drop":
		rl := scriptRelays[ts]
		if rl == nil || len(args[1]) < 64 {
			ts.Fatalf("rekor drop: no relay started, or %q is not an entry id", args[1])
		}
		rl.Drop.Store(args[1])
	default:
		ts.Fatalf("usage: rekor start|fail|ok|noindex|relay|drop UUID")
	}
}
