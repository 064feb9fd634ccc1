#!/bin/sh
# bench/scale/run.sh [SIZES...]   (default: 10000 200000 1000000)
# Builds a register of each size once through the register API, with the
# Claude Code transcripts of the same calls (bench/scale/gen.go: calls
# faithful to their tool, labelled by the catalog; kept under $SCALE_DIR,
# default /tmp/sentinel-scale, and reused; TRANSCRIPTS=0 leaves them out),
# then runs each reading command once under /usr/bin/time -v
# and prints wall time and peak RSS. doctor runs twice: the first walks the
# whole chain, the second only what was appended since (nothing here).
# The load average (uptime) is printed before and after each size: on a
# shared machine wall times are loose, peak RSS is the figure that counts.
# The goal (docs/cli.md, "Scale"): peak RSS under 64 MiB at 10M entries, time
# in step with the entries. export takes --include-unsealed: a generated
# register has no seal, and export stops at the last seal (an empty bundle). Past 8,192 tool_use ids the transcript joins use a
# temporary SQLite file (internal/spill): a few hundred MiB in TMPDIR at 10M.
set -eu
cd "$(dirname "$0")/../.."
dir=${SCALE_DIR:-/tmp/sentinel-scale}
mkdir -p "$dir/home"
go build -o "$dir/sentinel" ./cmd/sentinel
go build -o "$dir/gen" bench/scale/gen.go
[ $# -gt 0 ] || set -- 10000 200000 1000000
for n in "$@"; do
	# gen labels by the catalog with this HOME, as replay re-decides with it.
	export SENTINEL_HOME="$dir/$n" HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config" CLAUDE_CONFIG_DIR="$dir/$n/claude"
	tr=""
	[ "${TRANSCRIPTS:-1}" = 0 ] || tr="-transcripts $dir/$n/claude"
	[ -f "$dir/$n/register.db" ] || "$dir/gen" -out "$dir/$n/register.db" -n "$n" $tr
	echo "$n entries, before: $(uptime)"
	rm -f "$dir/$n/doctor.checkpoint" "$dir/$n/bundle.json"
	for c in "verify --allow-unsealed" "doctor" "doctor" "census --out $dir/stops-$n.json" \
		"outcomes" "outcomes --all --json" "grades" "grades --ungraded" "replay" "replay --json" "log -n 0 --json" \
		"export --include-unsealed --out $dir/$n/bundle.json" "verify --bundle $dir/$n/bundle.json --allow-unsealed"; do
		rc=0
		/usr/bin/time -v "$dir/sentinel" $c >/dev/null 2>"$dir/time.txt" || rc=$?
		wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
		printf '%8d  %-34s %10s  %6d MiB  exit %d\n' "$n" "$(echo "$c" | sed "s|$dir/||g")" "$wall" $((rss / 1024)) "$rc"
	done
	echo "$n entries, after: $(uptime)"
done
