// Command phases splits the hook's per-call cost into its parts, in one
// process (so without process start): config load, decide, canonical,
// register open, append (durable), close. Medians over -n rounds.
//
//	go run ./bench/hook/phases -n 200 -dir /path/on/the/disk/to/test
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
)

func main() {
	n := flag.Int("n", 200, "rounds")
	dir := flag.String("dir", "", "directory for the register (default: a temp dir)")
	flag.Parse()
	d := *dir
	if d == "" {
		var err error
		d, err = os.MkdirTemp("", "phases")
		check(err)
		defer os.RemoveAll(d)
	}
	path := filepath.Join(d, "register.db")
	cfgDir := filepath.Join(d, "config")
	call := judge.Call{SessionID: "s", Cwd: "/home/dev/proj", PermissionMode: "default", ToolName: "Bash",
		ToolInput: json.RawMessage(`{"command":"git status --short && npm test","description":"x"}`), ToolUseID: "t"}
	names := []string{"config", "decide", "canonical", "open", "append", "close", "total"}
	times := map[string][]time.Duration{}
	for i := 0; i < *n; i++ {
		t0 := time.Now()
		mark := func(name string) {
			now := time.Now()
			times[name] = append(times[name], now.Sub(t0))
			t0 = now
		}
		start := t0
		cfg, err := judge.LoadConfig(cfgDir, "/home/dev/proj")
		check(err)
		mark("config")
		dec := judge.Decide(call, judge.Env{Home: "/home/dev", ProjectDir: "/home/dev/proj", Config: cfg})
		mark("decide")
		in, err := judge.Canonical(call.ToolName, call.ToolInput)
		check(err)
		mark("canonical")
		reg, err := register.Open(path)
		check(err)
		mark("open")
		check(reg.Append(&register.Entry{Kind: register.KindDecision, Tool: "Bash", Input: in, Decision: dec.Decision, Rules: dec.RuleIDs()}))
		mark("append")
		check(reg.Close())
		mark("close")
		times["total"] = append(times["total"], time.Since(start))
	}
	for _, nm := range names {
		s := times[nm]
		slices.Sort(s)
		fmt.Printf("%-10s p50 %8.3f ms  p90 %8.3f ms\n", nm, float64(s[len(s)/2])/1e6, float64(s[len(s)*9/10])/1e6)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "phases:", err)
		os.Exit(1)
	}
}
