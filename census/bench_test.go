package census

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sentinel-guard/sentinel/transcript"
)

// BenchmarkCensus runs the census over $CENSUS_BENCH_DIR (transcripts made
// by bench/census/gen.go); bench/census/run.sh measures the full binary.
//
//	go run bench/census/gen.go -out /tmp/cb -size 64MiB
//	CENSUS_BENCH_DIR=/tmp/cb go test -run '^$' -bench Census -cpu 1 ./census
func BenchmarkCensus(b *testing.B) {
	dir := os.Getenv("CENSUS_BENCH_DIR")
	if dir == "" {
		b.Skip("set CENSUS_BENCH_DIR to a directory made by bench/census/gen.go")
	}
	var size int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if st, err := d.Info(); err == nil {
				size += st.Size()
			}
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	for b.Loop() {
		if _, err := Run(Options{TranscriptDirs: []string{dir}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIDSet measures the memory of the de-duplication set: heap bytes
// per distinct tool_use id, reported as B/id.
//
//	go test -run '^$' -bench IDSet -cpu 1 ./census
func BenchmarkIDSet(b *testing.B) {
	const n = 1_000_000
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := make(map[transcript.Key]uint8)
		for i := range n {
			m[transcript.KeyOf(fmt.Sprintf("toolu_01%022d", i))] = 1
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/id")
		runtime.KeepAlive(m)
	}
}
