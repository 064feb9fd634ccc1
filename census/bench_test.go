package census

import (
	"fmt"
	"os"
	"runtime"
	"testing"
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
	files, err := transcriptFiles(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			size += st.Size()
		}
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
		m := make(map[idKey]uint8)
		for i := range n {
			m[keyOf(fmt.Sprintf("toolu_01%022d", i))] = flagCall
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/id")
		runtime.KeepAlive(m)
	}
}
