package register

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Registers built once per benchmark process and shared by sub-benchmarks
// (building a million entries takes a while; see BulkLoad).
var (
	benchMu   sync.Mutex
	benchRegs = map[int]string{}
)

// benchRegister returns the path of a register holding n entries.
func benchRegister(b *testing.B, n int) string {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	// Small registers are built afresh each time so that the entries a
	// benchmark appends do not make "1K" grow into 10K; a million is built
	// once per process (a few thousand more do not matter there).
	if p, ok := benchRegs[n]; ok && n >= 100_000 {
		return p
	}
	dir, err := os.MkdirTemp("", "register-bench-")
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, "register.db")
	r, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	if err := BulkLoad(r, n, sample); err != nil {
		b.Fatal(err)
	}
	if old, ok := benchRegs[n]; ok {
		os.RemoveAll(filepath.Dir(old))
	}
	benchRegs[n] = p
	return p
}

func benchSizes() []int {
	if os.Getenv("REGISTER_BENCH_SMALL") != "" {
		return []int{1_000, 100_000}
	}
	return []int{1_000, 1_000_000}
}

// BenchmarkAppend is one durable append (BEGIN IMMEDIATE, insert, commit
// with synchronous=FULL) on an open register of 1K and of 1M entries.
func BenchmarkAppend(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			r, err := Open(benchRegister(b, n))
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			e := sample(1)
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				c := *e
				if err := r.Append(&c); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkOpenAppendClose is what the hook does per tool call: open the
// register, append one entry, close.
func BenchmarkOpenAppendClose(b *testing.B) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			p := benchRegister(b, n)
			e := sample(1)
			b.ResetTimer()
			cpu0 := cpuTime()
			defer func() { reportCPU(b, cpu0) }()
			for i := 0; i < b.N; i++ {
				r, err := Open(p)
				if err != nil {
					b.Fatal(err)
				}
				c := *e
				if err := r.Append(&c); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		})
	}
}

// BenchmarkVerify1M walks and verifies a register of one million entries.
func BenchmarkVerify1M(b *testing.B) {
	n := benchSizes()[1]
	p := benchRegister(b, n)
	r, err := OpenReadOnly(p)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if rep := r.Verify(); !rep.OK() || rep.Entries < int64(n) {
			b.Fatal(rep)
		}
	}
	reportCPU(b, cpu0)
}

// cpuTime is this process's user+system CPU time. The machine is shared,
// so wall time alone says as much about the neighbours as about us.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64(cpuTime()-since)/float64(b.N), "cpu-ns/op")
}

// BenchmarkEntryHash is the hashing alone (per entry).
func BenchmarkEntryHash(b *testing.B) {
	e := sample(1)
	seal(e, nil)
	e.Seq, e.PrevHash = 12345, GenesisHash
	var h hasher
	var dst [64]byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.sum(e, dst[:])
	}
}

// BenchmarkProcessAppend is one process per op that opens the register,
// appends one entry and exits, with and without Close, interleaved so both
// see the same load. The metrics are the medians and 99th percentiles of the
// time measured inside the process (process start is the hook's business:
// bench/hook). Register of 5,000 entries.
func BenchmarkProcessAppend(b *testing.B) {
	modes := []string{"once-close", "once"}
	paths := map[string]string{}
	for _, m := range modes {
		p := filepath.Join(b.TempDir(), "register.db")
		r, err := Open(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := BulkLoad(r, 5000, sample); err != nil {
			b.Fatal(err)
		}
		r.Close()
		paths[m] = p
	}
	us := map[string][]float64{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, m := range modes {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "REGISTER_TEST_CHILD="+m, "REGISTER_TEST_PATH="+paths[m])
			out, err := cmd.Output()
			if err != nil {
				b.Fatal(err)
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			if err != nil {
				b.Fatalf("child said %q", out)
			}
			us[m] = append(us[m], v)
		}
	}
	for _, m := range modes {
		x := us[m]
		slices.Sort(x)
		name := map[string]string{"once-close": "close", "once": "noclose"}[m]
		b.ReportMetric(x[len(x)/2], name+"-p50-us")
		b.ReportMetric(x[len(x)*99/100], name+"-p99-us")
	}
}

// BenchmarkAppendExpecting is the hook's append with the must-keep gate's
// cache check (one indexed look-up of the newest gate entry in the
// append's transaction) against the plain append, on the same register in
// the same run, alternating: the check's cost is the difference.
func BenchmarkAppendExpecting(b *testing.B) {
	for _, n := range benchSizes() {
		p := benchRegister(b, n)
		r, err := Open(p)
		if err != nil {
			b.Fatal(err)
		}
		g := &Entry{Kind: "gate", Label: "failed", Reason: "must-keep gate failed", Rules: []string{}}
		if err := r.Append(g); err != nil {
			b.Fatal(err)
		}
		x := &Expect{Kind: "gate", Seq: g.Seq, Hash: g.Hash, Label: g.Label, Reason: g.Reason}
		for _, mode := range []string{"plain", "expect", "plain", "expect"} {
			b.Run(fmt.Sprintf("entries=%d/%s", n, mode), func(b *testing.B) {
				e := sample(1)
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					c := *e
					var err error
					if mode == "expect" {
						err = r.AppendExpecting(&c, x)
					} else {
						err = r.Append(&c)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu0)
			})
		}
		r.Close()
	}
}
