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

	"github.com/sentinel-guard/sentinel/register"
)

func main() {
	hookBin := flag.String("hook", "bin/sentinel-hook", "sentinel-hook binary")
	baseBin := flag.String("baseline", "", "baseline binary (empty: none)")
	payDir := flag.String("payloads", "testdata/payloads", "directory of PreToolUse payloads")
	n := flag.Int("n", 500, "calls per binary")
	preload := flag.Int("preload", 0, "fill the register with this many entries first")
	post := flag.Bool("post", false, "time the PostToolUse path (sentinel-hook post) on post_*.json")
	asJSON := flag.Bool("json", false, "print the figures as JSON")
	flag.Parse()

	work, err := os.MkdirTemp("", "sentinel-bench")
	check(err)
	defer os.RemoveAll(work)
	state := filepath.Join(work, "state")
	env := append(os.Environ(), "SENTINEL_HOME="+state, "HOME="+filepath.Join(work, "home"),
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "CLAUDE_PROJECT_DIR=", "SENTINEL_UNATTENDED=")

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
