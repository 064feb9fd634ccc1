#!/bin/sh
# Register benchmarks (docs/register.md, "Measured"): durable append on a
# register of 1K and of 1M entries, open+append+close, entry hashing, and
# verifying a register of 1M entries. One CPU, five runs each; prints every
# run and then the median of each benchmark (wall ns/op and CPU ns/op).
#
#   sh bench/register_bench.sh            # full: builds a 1M-entry register (~1 min, ~600 MB in $TMPDIR)
#   REGISTER_BENCH_SMALL=1 sh bench/register_bench.sh   # 100K instead of 1M, for a quick look
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out" "$out.test"' EXIT
go test -c -o "$out.test" ./register/
cd register
# Appends: fixed 1000 per run so the 1K register stays near 1K.
"$out.test" -test.run '^$' -test.bench '^Benchmark(Append|OpenAppendClose|EntryHash)$' \
	-test.benchtime 1000x -test.cpu 1 -test.count 5 | tee "$out"
# One process per append, with and without Close (p50/p99 inside the process).
"$out.test" -test.run '^$' -test.bench '^BenchmarkProcessAppend$' \
	-test.benchtime 400x -test.cpu 1 -test.count 3
"$out.test" -test.run '^$' -test.bench 'Verify1M' \
	-test.benchtime 1x -test.cpu 1 -test.count 5 | tee -a "$out"
echo
echo "medians (of 5 runs):"
awk '/^Benchmark/ {
	name = $1; wall[name] = wall[name] " " $3
	for (i = 4; i < NF; i++) if ($(i+1) == "cpu-ns/op") cpu[name] = cpu[name] " " $i
}
function median(list,   a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	for (k in wall) {
		c = (k in cpu) ? sprintf("%.0f", median(cpu[k])) : "not measured"
		printf "%-45s wall %12.0f ns/op   cpu %s ns/op\n", k, median(wall[k]), c
	}
}' "$out" | sort
