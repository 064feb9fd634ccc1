#!/usr/bin/env bash
# census-screenshot.sh PAGE.html OUT.png
# Renders the census page in headless Chromium (Debian's chromium package,
# installed when missing and we are root) and writes a screenshot, to check
# that the page renders without JavaScript or network.
set -euo pipefail
page=${1:?usage: census-screenshot.sh PAGE.html OUT.png}
out=${2:?usage: census-screenshot.sh PAGE.html OUT.png}
bin=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$bin" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	else
		echo "census-screenshot: $bin not found (apt-get install chromium)" >&2
		exit 4
	fi
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
# No network is reachable or wanted: the page is self-contained.
timeout 120 "$bin" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --user-data-dir="$profile" --screenshot="$out_abs" \
	--window-size=1200,1600 "file://$abs" >/dev/null 2>&1
test -s "$out_abs"
echo "wrote $out"
