// Command driver times sentinel-hook per call as a whole process (payload
// in, decision out, durable append included) against the baseline binary,
// interleaved in the same run. With -preload it first fills the register
// with that many entries (register.BulkLoad), to show that appends do not
// slow down as the register grows.
//
//	driver -hook bin/sentinel-hook -baseline bin/baseline -payloads testdata/payloads -n 500
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/session"
)

func main() {
	hookBin := flag.String("hook", "bin/sentinel-hook", "sentinel-hook binary")
	baseBin := flag.String("baseline", "", "baseline binary (empty: none)")
	payDir := flag.String("payloads", "testdata/payloads", "directory of PreToolUse payloads")
	n := flag.Int("n", 500, "calls per binary")
	preload := flag.Int("preload", 0, "fill the register with this many entries first")
	post := flag.Bool("post", false, "time the PostToolUse path (sentinel-hook post) on post_*.json")
	asJSON := flag.Bool("json", false, "print the figures as JSON")
	window := flag.Int("window", 0, "time the session memory: a call that runs a file, in a session with this many entries with facts, against the same call where the session has none")
	flag.Parse()

	work, err := os.MkdirTemp("", "sentinel-bench")
	check(err)
	defer os.RemoveAll(work)
	state := filepath.Join(work, "state")
	env := append(os.Environ(), "SENTINEL_HOME="+state, "HOME="+filepath.Join(work, "home"),
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "CLAUDE_PROJECT_DIR=", "SENTINEL_UNATTENDED=")

	if *window > 0 {
		timeWindow(*hookBin, work, *n, *preload, *window, *asJSON)
		return
	}
	if *preload > 0 {
		t0 := time.Now()
		reg, err := register.Open(filepath.Join(state, "register.db"))
		check(err)
		e := &register.Entry{Kind: register.KindDecision, Tool: "Bash", Decision: "allow", Rules: []string{},
			Input: []byte(`{"command":"npm test"}`), SessionID: "bench", Cwd: "/home/dev/proj"}
		check(register.BulkLoad(reg, *preload, func(int) *register.Entry { return e }))
		check(reg.Close())
		fmt.Fprintf(os.Stderr, "preloaded %d entries in %v\n", *preload, time.Since(t0).Round(time.Millisecond))
	}

	payloads := loadPayloads(*payDir, *post)
	var hookArgs []string
	if *post {
		hookArgs = []string{"post"}
	}
	// Warm up the page cache and the register (schema creation).
	for i := 0; i < 5; i++ {
		run(*hookBin, hookArgs, payloads[i%len(payloads)], env)
		if *baseBin != "" {
			run(*baseBin, nil, payloads[i%len(payloads)], env)
		}
	}
	var th, tb, ch, cb []time.Duration
	timeOne := func(bin string, args []string, p []byte, wall, cpu *[]time.Duration) {
		w, c := runCPU(bin, args, p, env)
		*wall, *cpu = append(*wall, w), append(*cpu, c)
	}
	for i := 0; i < *n; i++ {
		p := payloads[i%len(payloads)]
		// Alternate which goes first so neither gets a systematic cache edge.
		if *baseBin != "" && i%2 == 1 {
			timeOne(*baseBin, nil, p, &tb, &cb)
		}
		timeOne(*hookBin, hookArgs, p, &th, &ch)
		if *baseBin != "" && i%2 == 0 {
			timeOne(*baseBin, nil, p, &tb, &cb)
		}
	}
	res := map[string]any{"n": *n, "preload": *preload, "post": *post, "payloads": len(payloads),
		"hook_p50_ms": ms(pct(th, 50)), "hook_p99_ms": ms(pct(th, 99)), "hook_cpu_p50_ms": ms(pct(ch, 50))}
	if *baseBin != "" {
		res["baseline_p50_ms"] = ms(pct(tb, 50))
		res["baseline_p99_ms"] = ms(pct(tb, 99))
		res["p50_diff_ms"] = ms(pct(th, 50) - pct(tb, 50))
		res["p50_ratio"] = round(float64(pct(th, 50)) / float64(pct(tb, 50)))
		res["baseline_cpu_p50_ms"] = ms(pct(cb, 50))
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Println(string(b))
		return
	}
	path := "PreToolUse"
	if *post {
		path = "PostToolUse"
	}
	fmt.Printf("%s, %d calls, %d payloads, register preloaded with %d entries\n", path, *n, len(payloads), *preload)
	fmt.Printf("  %-14s p50 %.3f ms  p99 %.3f ms  (cpu p50 %.3f ms)\n", filepath.Base(*hookBin), res["hook_p50_ms"], res["hook_p99_ms"], res["hook_cpu_p50_ms"])
	if *baseBin != "" {
		fmt.Printf("  %-14s p50 %.3f ms  p99 %.3f ms  (cpu p50 %.3f ms)\n", filepath.Base(*baseBin), res["baseline_p50_ms"], res["baseline_p99_ms"], res["baseline_cpu_p50_ms"])
		fmt.Printf("  difference p50 %.3f ms, ratio p50 %.2fx\n", res["p50_diff_ms"], res["p50_ratio"])
	}
}

// loadPayloads reads the PreToolUse payloads (or, with post, the PostToolUse
// ones) of a directory, in name order.
func loadPayloads(dir string, post bool) [][]byte {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	check(err)
	slices.Sort(names)
	var out [][]byte
	for _, nm := range names {
		if strings.HasPrefix(filepath.Base(nm), "post_") != post {
			continue
		}
		b, err := os.ReadFile(nm)
		check(err)
		out = append(out, b)
	}
	if len(out) == 0 {
		check(fmt.Errorf("no payloads in %s", dir))
	}
	return out
}

// run times one process from start to exit, stdin fed and stdout read.
func run(bin string, args []string, payload []byte, env []string) time.Duration {
	d, _ := runCPU(bin, args, payload, env)
	return d
}

// runCPU is run that also returns the CPU time (user + system) the process
// used: on a loaded machine it says what the call costs apart from waiting.
func runCPU(bin string, args []string, payload []byte, env []string) (time.Duration, time.Duration) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	if err != nil {
		check(fmt.Errorf("%s: %v\n%s", bin, err, errb.String()))
	}
	return d, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}

func ms(d time.Duration) float64 { return round(float64(d) / 1e6) }

func round(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		os.Exit(1)
	}
}

// timeWindow times the session memory's look-up in the hook: the payload
// runs a file (`bash x.sh`), so the hook reads the session's entries with
// facts. Register A holds window such entries for the payload's session,
// the fact about x.sh the oldest (the look-up reads them all); register B
// holds the same entries for another session (the look-up finds none);
// and `ls -la` on register A asks nothing of the memory (it never opens
// it). Both are preloaded with the same plain entries first. Runs rotate.
func timeWindow(hookBin, work string, n, preload, window int, asJSON bool) {
	const sid = "bench-window"
	mk := func(command string) []byte {
		b, _ := json.Marshal(map[string]any{"session_id": sid, "transcript_path": "/tmp/t.jsonl",
			"cwd": "/home/dev/proj", "permission_mode": "default", "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_bench"})
		return b
	}
	payload, plain := mk("bash x.sh"), mk("ls -la")
	envFor := func(name, factSession string) []string {
		state := filepath.Join(work, name)
		reg, err := register.Open(filepath.Join(state, "register.db"))
		check(err)
		if preload > 0 {
			e := &register.Entry{Kind: register.KindDecision, Tool: "Bash", Decision: "allow", Rules: []string{},
				Input: []byte(`{"command":"npm test"}`), SessionID: "bench", Cwd: "/home/dev/proj"}
			check(register.BulkLoad(reg, preload, func(int) *register.Entry { return e }))
		}
		check(register.BulkLoad(reg, window, func(i int) *register.Entry {
			p := fmt.Sprintf("/home/dev/proj/f%d.sh", i)
			if i == 0 {
				p = "/home/dev/proj/x.sh"
			}
			f := &judge.Facts{Written: []judge.WrittenFact{{Path: p, Verdict: judge.Allow}}}
			return &register.Entry{Kind: register.KindDecision, Tool: "Write", Decision: "allow", Rules: []string{},
				Input: []byte(`{"file_path":"` + p + `"}`), SessionID: factSession, Cwd: "/home/dev/proj",
				Facts: session.Encode(factSession, f)}
		}))
		check(reg.Close())
		return append(os.Environ(), "SENTINEL_HOME="+state, "HOME="+filepath.Join(work, "home"),
			"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "CLAUDE_PROJECT_DIR=", "SENTINEL_UNATTENDED=")
	}
	envA, envB := envFor("window", sid), envFor("other", "another-session")
	for i := 0; i < 5; i++ {
		runCPU(hookBin, nil, payload, envA)
		runCPU(hookBin, nil, payload, envB)
	}
	var wa, ca, wb, cb, wc, cc []time.Duration
	one := func(p []byte, env []string, w, c *[]time.Duration) {
		dw, dc := runCPU(hookBin, nil, p, env)
		*w, *c = append(*w, dw), append(*c, dc)
	}
	runs := []func(){func() { one(payload, envA, &wa, &ca) }, func() { one(payload, envB, &wb, &cb) },
		func() { one(plain, envA, &wc, &cc) }}
	for i := 0; i < n; i++ {
		for k := range runs {
			runs[(i+k)%len(runs)]()
		}
	}
	res := map[string]any{"n": n, "preload": preload, "window": window,
		"with_window_p50_ms": ms(pct(wa, 50)), "with_window_cpu_p50_ms": ms(pct(ca, 50)),
		"without_p50_ms": ms(pct(wb, 50)), "without_cpu_p50_ms": ms(pct(cb, 50)),
		"p50_diff_ms": ms(pct(wa, 50) - pct(wb, 50)), "p50_ratio": round(float64(pct(wa, 50)) / float64(pct(wb, 50))),
		"cpu_p50_ratio":    round(float64(pct(ca, 50)) / float64(pct(cb, 50))),
		"no_lookup_p50_ms": ms(pct(wc, 50)), "no_lookup_cpu_p50_ms": ms(pct(cc, 50)),
		"vs_no_lookup_p50_ratio":     round(float64(pct(wa, 50)) / float64(pct(wc, 50))),
		"vs_no_lookup_cpu_p50_ratio": round(float64(pct(ca, 50)) / float64(pct(cc, 50)))}
	if asJSON {
		b, _ := json.Marshal(res)
		fmt.Println(string(b))
		return
	}
	fmt.Printf("bash x.sh, %d calls each, register preloaded with %d entries, session window %d entries with facts\n", n, preload, window)
	fmt.Printf("  with the window     p50 %.3f ms  (cpu p50 %.3f ms)\n", res["with_window_p50_ms"], res["with_window_cpu_p50_ms"])
	fmt.Printf("  session has none    p50 %.3f ms  (cpu p50 %.3f ms)\n", res["without_p50_ms"], res["without_cpu_p50_ms"])
	fmt.Printf("  ls -la (no look-up) p50 %.3f ms  (cpu p50 %.3f ms)\n", res["no_lookup_p50_ms"], res["no_lookup_cpu_p50_ms"])
	fmt.Printf("  window vs none: difference p50 %.3f ms, ratio p50 %.2fx, cpu ratio p50 %.2fx\n", res["p50_diff_ms"], res["p50_ratio"], res["cpu_p50_ratio"])
	fmt.Printf("  window vs no look-up: ratio p50 %.2fx, cpu ratio p50 %.2fx\n", res["vs_no_lookup_p50_ratio"], res["vs_no_lookup_cpu_p50_ratio"])
}
