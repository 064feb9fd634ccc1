// Command seal-bench measures sealing and verification at scale:
//
//	go run ./bench/seal [-n 1000000] [-small 1000] [-reps 15] [-dir DIR]
//
// It builds a small and a large real register (register.BulkLoad), seals each
// once in a test Rekor (seal/rekortest, in process, loopback HTTP), then
// measures an incremental seal (-add new entries, then seal) -reps times at
// each size: the medians and their ratio show whether a seal's cost grows
// with the register. It then times a full offline verification of the large
// register (chain + seals + Rekor answers), against the chain-only walk of
// register.Verify measured in the same run as the baseline. Runs on one
// core (GOMAXPROCS=1) unless -procs says otherwise.
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
	"github.com/sentinel-guard/sentinel/seal/rekortest"
)

func main() {
	n := flag.Int("n", 1_000_000, "entries in the large register")
	small := flag.Int("small", 1_000, "entries in the small register")
	reps := flag.Int("reps", 15, "incremental seals measured per size")
	add := flag.Int("add", 100, "entries appended before each incremental seal")
	vreps := flag.Int("vreps", 3, "verifications of the large register")
	dir := flag.String("dir", "", "keep the registers here (default: a temp dir, removed)")
	procs := flag.Int("procs", 1, "GOMAXPROCS")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the verifications here")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "seal-bench:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
		pprof.StartCPUProfile(f)
	}
	runtime.GOMAXPROCS(*procs)
	if err := run(*n, *small, *reps, *add, *vreps, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "seal-bench:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func entry(i int) *register.Entry {
	return &register.Entry{Kind: register.KindDecision, SessionID: "bench", Tool: "Bash",
		Input: fmt.Appendf(nil, `{"command":"echo %d"}`, i), Decision: "allow", Reason: "no objection",
		Rules: []string{}}
}

func run(n, small, reps, add, vreps int, dir string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "seal-bench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	log := rekortest.New()
	defer log.Close()
	rkey, err := seal.ParseRekorKey(log.PublicKeyPEM())
	if err != nil {
		return err
	}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ctx := context.Background()
	opts := seal.Options{RekorURL: log.URL, Key: key}
	fmt.Printf("go %s, GOMAXPROCS=%d, %s/%s\n", runtime.Version(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)

	regs := map[int]*register.Register{}
	for _, size := range []int{small, n} {
		path := filepath.Join(dir, fmt.Sprintf("register-%d.db", size))
		os.Remove(path)
		reg, err := register.Open(path)
		if err != nil {
			return err
		}
		defer reg.Close()
		regs[size] = reg
		t0 := time.Now()
		if err := register.BulkLoad(reg, size, entry); err != nil {
			return err
		}
		fmt.Printf("register of %d entries built in %v\n", size, time.Since(t0).Round(time.Millisecond))
		t0 = time.Now()
		if _, err := seal.SealRegister(ctx, reg.DB(), seal.RegisterSource(reg), opts); err != nil {
			return err
		}
		fmt.Printf("  first seal (reads all %d entries): %v\n", size, time.Since(t0).Round(time.Millisecond))
	}
	// Incremental seals, the two sizes interleaved so that load on the
	// machine hits both alike.
	ds := map[int][]time.Duration{}
	for r := range reps {
		for _, size := range []int{small, n} {
			reg := regs[size]
			if err := register.BulkLoad(reg, add, func(i int) *register.Entry { return entry(size + r*add + i) }); err != nil {
				return err
			}
			t0 := time.Now()
			res, err := seal.SealRegister(ctx, reg.DB(), seal.RegisterSource(reg), opts)
			if err != nil {
				return err
			}
			ds[size] = append(ds[size], time.Since(t0))
			if res.New == nil {
				return fmt.Errorf("no seal made")
			}
		}
	}
	for _, size := range []int{small, n} {
		d := ds[size]
		fmt.Printf("incremental seal (+%d entries) at %d entries: median %v over %d (min %v, max %v)\n",
			add, size, median(d).Round(time.Microsecond), reps, slices.Min(d).Round(time.Microsecond), slices.Max(d).Round(time.Microsecond))
	}
	fmt.Printf("seal cost ratio %d / %d entries: %.2f\n", n, small, float64(median(ds[n]))/float64(median(ds[small])))
	large := regs[n]

	// Wall time depends on what else the machine runs; CPU time (user +
	// system, this process) is printed beside it.
	var chain, full, chainCPU, fullCPU []time.Duration
	var rep *seal.Report
	for range vreps {
		t0, c0 := time.Now(), cpuTime()
		if r := large.Verify(); !r.OK() {
			return fmt.Errorf("chain: %s", r.Problem.Msg)
		}
		chain, chainCPU = append(chain, time.Since(t0)), append(chainCPU, cpuTime()-c0)
		t0, c0 = time.Now(), cpuTime()
		if rep, err = seal.VerifyRegister(ctx, large, seal.VerifyOptions{Operator: &key.PublicKey, Rekor: rkey}); err != nil {
			return err
		}
		full, fullCPU = append(full, time.Since(t0)), append(fullCPU, cpuTime()-c0)
		if !rep.OK {
			return fmt.Errorf("verify: %s", rep.Failure)
		}
	}
	fmt.Printf("verify %d entries, %d seals (chain + seals + Rekor answers): median %v wall, %v CPU over %d\n",
		rep.Entries, len(rep.Seals), median(full).Round(time.Millisecond), median(fullCPU).Round(time.Millisecond), vreps)
	fmt.Printf("baseline register.Verify (chain only), same run: median %v wall, %v CPU; ratio (wall) %.2f\n",
		median(chain).Round(time.Millisecond), median(chainCPU).Round(time.Millisecond), float64(median(full))/float64(median(chain)))
	return nil
}
