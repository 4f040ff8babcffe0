#!/usr/bin/env bash
# The tar1090 check of issue 26 (docs/CHECKS.md): tar1090 (wiedehopf/tar1090, unmodified,
# fetched outside this repository) is served on FlyTracker's --json-dir and opened in headless
# Chromium; right after load it must show the aircraft with trails (from the history files)
# and the range outline (from outline.json).
#
# usage: docs/checks/tar1090.sh FLYTRACKER TAR1090_HTML_DIR
set -euo pipefail
FT=$1 HTML=$2
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
cp -r "$HTML" "$WORK/site"
mkdir -p "$WORK/site/data"
# A live simulated sky; a history file every 2 s so trails build up within half a minute.
"$FT" run --simulate --sim-aircraft 20 --lat 52.3 --lon 4.76 --no-db --json-dir "$WORK/site/data" \
    --json-history-interval 2 --quiet &
sleep 30
python3 -m http.server 48090 --bind 127.0.0.1 --directory "$WORK/site" >/dev/null 2>&1 &
sleep 1
chromium --headless --no-sandbox --disable-gpu --remote-debugging-port=49222 \
    --user-data-dir="$WORK/profile" about:blank >/dev/null 2>&1 &
sleep 1
python3 "$HERE/cdp_eval.py" 49222 "http://127.0.0.1:48090/" 15 'JSON.stringify({
  historyFiles: nHistoryItems,
  aircraft: g.planesOrdered.length,
  withTrail: g.planesOrdered.filter(p => p.track_linesegs.reduce((n, s) => n + s.fixed.getCoordinates().length, 0) > 2).length,
  outlineShown: !!actualOutline.enabled,
  outlinePoints: actualOutline.features ? actualOutline.features.getFeatures().reduce((n, f) => n + f.getGeometry().getCoordinates().flat().length, 0) : 0
})'
