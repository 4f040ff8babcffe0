#!/usr/bin/env bash
# The graphs1090 check of issue 26 (docs/CHECKS.md): graphs1090's collector (dump1090.py from
# wiedehopf/graphs1090, fetched outside this repository) reads FlyTracker's JSON files after
# 70 s of simulated sky and prints what it would hand to collectd.
#
# usage: docs/checks/graphs1090.sh FLYTRACKER DUMP1090_PY
set -euo pipefail
FT=$1 COLLECTOR=$2
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$FT" run --simulate --sim-fast --sim-duration 70 --sim-channel realistic --sim-aircraft 20 \
    --lat 52.3 --lon 4.76 --no-db --json-dir "$WORK/data" --quiet
cp "$COLLECTOR" "$WORK/dump1090.py"
cd "$WORK"
PYTHONPATH="$HERE" python3 -c "
import collectd, runpy
runpy.run_path('dump1090.py')
collectd.run('file://$WORK')
"
