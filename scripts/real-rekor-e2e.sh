#!/usr/bin/env bash
# End-to-end check of sealing against a real Rekor v1 log (not needed by CI).
#
#   REKOR_URL=http://127.0.0.1:3000 REKOR_PUBKEY=/tmp/real-rekor/log.pub bash scripts/real-rekor-e2e.sh
#
# With no REKOR_URL it sources $REAL_REKOR_DIR/env (default /tmp/real-rekor/env,
# written by the shared real-rekor/up.sh). For the public-good log:
#   REKOR_URL=https://rekor.sigstore.dev REKOR_PUBKEY=testdata/rekor/rekor-public-good.pub
#
# It builds both binaries, makes a register by running real Claude Code
# payloads through sentinel-hook, creates an encrypted key, seals (first
# against an unreachable URL, to show the pending path), seals again,
# verifies offline, exports a bundle, verifies it, seals a protocol file,
# verifies online (live entries, consistency, the monitor over the log's
# search index) and checks that a bundle cut before the last seal fails
# online. Exit 2 (CI skips) when no server is given or running. All state lives in a
# temp dir; nothing of the operator's is touched.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${REKOR_URL:-}" ]; then
	env_file=${REAL_REKOR_DIR:-/tmp/real-rekor}/env
	[ -r "$env_file" ] || { echo "set REKOR_URL and REKOR_PUBKEY, or start real-rekor (up.sh)" >&2; exit 2; }
	# shellcheck disable=SC1090
	. "$env_file"
fi
: "${REKOR_PUBKEY:?set REKOR_PUBKEY to the log public key (PEM)}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin
# Build before HOME moves: Go's caches live under the real HOME.
(cd "$repo" && go build -o "$bin/" ./cmd/sentinel ./cmd/sentinel-hook)
export PATH=$bin:$PATH
export HOME=$work/home SENTINEL_HOME=$work/state XDG_CONFIG_HOME=$work/config XDG_STATE_HOME=$work/xstate
export CLAUDE_CONFIG_DIR=$work/home/.claude
export SENTINEL_PASSWORD=real-rekor-e2e   # keygen encrypts the key (cosign's format)
mkdir -p "$HOME"

step() { printf '\n== %s\n' "$*"; }
expect() { # expect CODE CMD...: run CMD, require exit CODE
	local want=$1; shift
	set +e; "$@"; local got=$?; set -e
	[ "$got" = "$want" ] || { echo "FAIL: '$*' exited $got, want $want" >&2; exit 1; }
}

step "register: real payloads through sentinel-hook"
n=0
for p in "$repo"/testdata/payloads/*.json; do
	sentinel-hook < "$p" > /dev/null 2>&1 || true
	n=$((n + 1))
done
echo "$n payloads judged"
step "nothing sealed yet: verify fails, --allow-unsealed checks the chain only"
expect 1 sentinel verify
sentinel verify --allow-unsealed

step "keygen"
sentinel keygen

step "seal against an unreachable log: kept pending, exit 4"
expect 4 sentinel seal --rekor-url http://127.0.0.1:9 --timeout 5s
expect 0 sentinel verify --rekor-key "$REKOR_PUBKEY" --allow-unsealed

step "seal against $REKOR_URL: the pending seal is uploaded"
sentinel seal --rekor-url "$REKOR_URL"
for p in "$repo"/testdata/payloads/bash_*.json; do sentinel-hook < "$p" > /dev/null 2>&1 || true; done
sentinel seal --rekor-url "$REKOR_URL"
sentinel-hook < "$repo/testdata/payloads/bash_echo_data.json" > /dev/null 2>&1 || true

step "verify offline, pinned to $REKOR_PUBKEY (the last entry is unsealed: fails without --allow-unsealed)"
expect 1 sentinel verify --rekor-key "$REKOR_PUBKEY"
sentinel verify --rekor-key "$REKOR_PUBKEY" --allow-unsealed
step "verify with the public-good key instead: must fail (different log key)"
expect 1 sentinel verify --allow-unsealed

step "export and verify the bundle"
sentinel export --out "$work/bundle.json" --disclose 1,3
op=$XDG_CONFIG_HOME/sentinel/signing.key.pub
sentinel verify --bundle "$work/bundle.json" --rekor-key "$REKOR_PUBKEY" --operator-key "$op"
expect 6 sentinel verify --bundle "$work/bundle.json" --rekor-key "$REKOR_PUBKEY"   # not pinned
sentinel export --out "$work/bundle-all.json" --disclose all --include-unsealed
sentinel verify --bundle "$work/bundle-all.json" --rekor-key "$REKOR_PUBKEY" --allow-unsealed --operator-key "$op" --json > "$work/report.json"
echo "bundle with everything disclosed: ok"

step "protocol seal against $REKOR_URL; the seal travels in the bundle"
cat > "$work/protocol.toml" <<'TOML'
version = 1
catalog_version = "x"
catalog_hash = "y"

[[prediction]]
id = "rate"
metric = "sentinel_flags_per_100_decisions"
comparison = "below"
value = 100.0
reading = "2099-12-15"
TOML
sentinel protocol seal "$work/protocol.toml" --rekor-url "$REKOR_URL"
expect 1 sentinel protocol check "$work/protocol.toml" --at today --rekor-key "$REKOR_PUBKEY"   # the tail is unsealed: NOT SEALED

step "seal the tail, export a bundle cut here, seal once more"
sentinel seal --rekor-url "$REKOR_URL"
sentinel protocol check "$work/protocol.toml" --at today --rekor-key "$REKOR_PUBKEY"
sentinel export --out "$work/cut.json" --fields all
sentinel verify --bundle "$work/cut.json" --rekor-key "$REKOR_PUBKEY" --operator-key "$op"
sentinel protocol check "$work/protocol.toml" --at today --bundle "$work/cut.json" --rekor-key "$REKOR_PUBKEY" --operator-key "$op"
sentinel-hook < "$repo/testdata/payloads/bash_npm_test.json" > /dev/null 2>&1 || true
sentinel seal --rekor-url "$REKOR_URL"
# rekor-server writes its search index (Redis) after integrating: give it a moment.
sleep 2

step "verify online against $REKOR_URL: live entries, consistency, and the monitor (search index by key)"
sentinel verify --online --rekor-key "$REKOR_PUBKEY" --rekor-url "$REKOR_URL"
step "a private log's key without --rekor-url: the log is not guessed (exit 3)"
expect 3 sentinel verify --online --rekor-key "$REKOR_PUBKEY"
step "the cut bundle online: the later seal in the log is not in it, must fail"
expect 1 sentinel verify --bundle "$work/cut.json" --online --rekor-key "$REKOR_PUBKEY" --rekor-url "$REKOR_URL" --operator-key "$op"

echo
echo "real-rekor e2e: all steps passed"
