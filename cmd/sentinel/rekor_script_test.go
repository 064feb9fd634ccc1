package main

import (
	"os"
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
// makes the relay leave that entry out of search answers.
var (
	scriptLogsMu sync.Mutex
	scriptLogs   = map[*testscript.TestScript]*rekortest.Log{}
	scriptRelays = map[*testscript.TestScript]*rekortest.Relay{}
)

func cmdRekor(ts *testscript.TestScript, neg bool, args []string) {
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
