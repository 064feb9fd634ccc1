#!/usr/bin/env bash
# Replay of a large register (default 1,000,000 entries) against a plain
# read of the same register, both in the same run, one CPU, 3 runs each;
# prints the medians and the ratio. The register is built once per run
# (outside the timings) with register.BulkLoad and a realistic command mix.
#
#   bench/replay/run.sh
#   REPLAY_N=100000 COUNT=5 bench/replay/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT=${COUNT:-3}
echo "== go version: $(go version)"
echo "== cpus: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); entries: ${REPLAY_N:-1000000}"
out=$(go test ./bench/replay/ -run '^$' -bench 'Scan|Replay' -benchtime 1x -count "$COUNT" -cpu 1 -timeout 60m -benchmem)
echo "$out" | grep -E '^Benchmark'
echo "$out" | awk '
  /^BenchmarkScan/   { for (i=1;i<=NF;i++) if ($(i+1)=="ns/op") scan[++ns]=$i; for (i=1;i<=NF;i++) if ($(i+1)=="B/op") smem[ns]=$i }
  /^BenchmarkReplay/ { for (i=1;i<=NF;i++) if ($(i+1)=="ns/op") rep[++nr]=$i;  for (i=1;i<=NF;i++) if ($(i+1)=="B/op") rmem[nr]=$i }
  function median(a, n,   i, j, t) { for (i=1;i<=n;i++) for (j=i+1;j<=n;j++) if (a[j]<a[i]) { t=a[i]; a[i]=a[j]; a[j]=t }; return a[int((n+1)/2)] }
  END {
    s = median(scan, ns); r = median(rep, nr)
    printf "median scan   %.2f s\nmedian replay %.2f s\nratio replay/scan %.1f\n", s/1e9, r/1e9, r/s
    printf "allocated per replay run (median) %.0f MB\n", median(rmem, nr)/1e6
  }'
