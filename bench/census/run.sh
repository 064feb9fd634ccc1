#!/usr/bin/env bash
# bench/census/run.sh [SIZE] [RUNS]
# Generates SIZE (default 1GiB) of synthetic transcripts (bench/census/gen.go,
# not committed), then runs `sentinel census` over them RUNS times (default 3)
# under /usr/bin/time, beside a baseline in the same run: `cat` of every file
# to /dev/null (reading the bytes, nothing else). Prints each run and the
# medians: wall seconds, CPU seconds (user+sys: the machine is shared, so
# wall time depends on the load, printed per run), peak RSS (MiB), and the
# ratio to the baseline.
# Targets (issue 5): under 60 s and under 200 MiB for >= 1 GiB.
set -euo pipefail
size=${1:-1GiB}
runs=${2:-3}
cd "$(dirname "$0")/../.."
data=${CENSUS_BENCH_DIR:-/tmp/census-bench-$size}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/sentinel" ./cmd/sentinel
if [ ! -d "$data/projects" ]; then
	go run bench/census/gen.go -out "$data" -size "$size"
fi
bytes=$(du -sb "$data" | cut -f1)
files=$(find "$data" -name '*.jsonl' | wc -l)
echo "data: $data, $bytes bytes in $files files; GOMAXPROCS=${GOMAXPROCS:-default}; $(nproc) cores"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
base=() census=() rss=() cpu=()
for i in $(seq "$runs"); do
	b=$( { /usr/bin/time -f '%e' sh -c "find '$data' -name '*.jsonl' -exec cat {} + >/dev/null" ; } 2>&1 | tail -1)
	out=$( { /usr/bin/time -f '%e %M %U %S' "$bin/sentinel" census --transcripts "$data/projects" --no-register --out "$bin/stops.json" >/dev/null ; } 2>&1 | tail -1)
	set -- $out
	cpu_s=$(awk -v u="$3" -v s="$4" 'BEGIN{print u+s}')
	echo "run $i: baseline cat ${b}s; census ${1}s wall, ${cpu_s}s CPU, peak RSS $(( $2 / 1024 )) MiB; load $(cut -d' ' -f1 /proc/loadavg)"
	base+=("$b") census+=("$1") rss+=("$2") cpu+=("$cpu_s")
done
mb=$(printf '%s\n' "${base[@]}" | median)
mc=$(printf '%s\n' "${census[@]}" | median)
mr=$(printf '%s\n' "${rss[@]}" | median)
mcpu=$(printf '%s\n' "${cpu[@]}" | median)
echo "median: census ${mc}s wall, ${mcpu}s CPU (target < 60 s), peak RSS $(( ${mr%.*} / 1024 )) MiB (target < 200 MiB); baseline cat ${mb}s; ratio census/cat $(awk -v c="$mc" -v b="$mb" 'BEGIN{printf "%.1f", (b>0? c/b : 0)}')"
grep -o '"count": [0-9]*' "$bin/stops.json" | head -1
