#!/usr/bin/env bash
# Times sentinel-hook per call as a whole process against a minimal Go
# binary that reads stdin and exits, interleaved in the same run, then the
# same at a register of 1K and of 1M entries.
#
#   bench/hook/run.sh            # N=500 calls, 1M preload
#   N=200 BIG=100000 bench/hook/run.sh
#
# Row 0 times cgobaseline, which links the SQLite driver (cgo) and does
# nothing: the part of the gap any cgo binary pays before the hook's work.
#
# Run it on a quiet machine; it uses one process at a time.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-500}
BIG=${BIG:-1000000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/" ./cmd/sentinel-hook ./bench/hook/baseline ./bench/hook/cgobaseline ./bench/hook/driver
d="$out/driver -hook $out/sentinel-hook -payloads testdata/payloads"

echo "== go version: $(go version)"
echo "== cpus: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== 0. cgo floor: cgobaseline (links go-sqlite3, does nothing) in place of the hook"
$out/driver -hook "$out/cgobaseline" -baseline "$out/baseline" -payloads testdata/payloads -n "$N"
echo "== 1. PreToolUse vs baseline, fresh register"
$d -baseline "$out/baseline" -n "$N"
echo "== 2. PostToolUse vs baseline, fresh register"
$d -baseline "$out/baseline" -n "$N" -post
echo "== 3. PreToolUse at 1K entries"
$d -baseline "$out/baseline" -n "$N" -preload 1000
echo "== 4. PreToolUse at $BIG entries"
$d -baseline "$out/baseline" -n "$N" -preload "$BIG"
echo "== 4b. session memory: bash x.sh with a 256-entry session window vs a session with none, at 1K entries"
$out/driver -hook $out/sentinel-hook -n "$N" -preload 1000 -window 256
if [ -d /dev/shm ]; then
	echo "== 5. PreToolUse, register on tmpfs (/dev/shm): the same work without the disk's fsync"
	TMPDIR=/dev/shm $d -baseline "$out/baseline" -n "$N"
fi
