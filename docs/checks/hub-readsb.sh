#!/usr/bin/env bash
# The hub check of issue 26 (docs/CHECKS.md): a feeder sends Beast frames to FlyTracker in
# --net-only mode; readsb, also --net-only, reads FlyTracker's Beast output; every frame the
# feeder sent must come out of readsb's AVR output.
#
# usage: docs/checks/hub-readsb.sh FLYTRACKER READSB FRAMES.avr
#   FRAMES.avr: `flytracker run --ifile REC --raw --timestamps` output (the first receiver).
# readsb is built outside this repository from its own source (wiedehopf/readsb).
set -euo pipefail
FT=$1 READSB=$2 FRAMES=$3
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

"$FT" run --net-only --net-bi-port 41004 --net-bo-port 41005 --net-ro-port 0 --net-sbs-port 0 \
    --net-ri-port 0 --http-port 0 --no-db --quiet 2>"$WORK/flytracker.log" &
sleep 1
"$READSB" --net-only --net-connector 127.0.0.1,41005,beast_in --net-ro-port 42002 --net-bo-port 0 \
    --net-sbs-port 0 --net-bi-port 0 --net-ri-port 0 --quiet >"$WORK/readsb.log" 2>&1 &
sleep 1.5
python3 "$HERE/tcp_collect.py" 127.0.0.1 42002 "$WORK/readsb.avr" 15 &
COLLECT=$!
python3 "$HERE/beast_send.py" "$FRAMES" 127.0.0.1 41004 1 500
wait $COLLECT
python3 - "$FRAMES" "$WORK/readsb.avr" <<'PY'
import sys
from collections import Counter
def frames(path):
    out = []
    for line in open(path, errors="replace"):
        line = line.strip()
        if line.endswith(";") and len(line) > 3:
            out.append((line[13:-1] if line.startswith("@") else line[1:-1]).upper())
    return Counter(f for f in out if f != "0000")
sent, got = frames(sys.argv[1]), frames(sys.argv[2])
missing = sent - got
print(f"feeder sent {sum(sent.values())} frames; readsb passed on {sum(got.values())}; "
      f"missing {sum(missing.values())}; not sent {sum((got - sent).values())}")
sys.exit(1 if missing else 0)
PY
