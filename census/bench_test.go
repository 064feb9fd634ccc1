package census

import (
	"os"
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
