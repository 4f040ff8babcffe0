#!/bin/bash
# Writes packaging/flytracker.order, the function order the package's link uses (lld's
# --symbol-ordering-file, see build-deb.sh): the functions a replay runs, hottest first, then
# those only a receiver with its database, feeds and JSON files runs. Packed together they are
# the only code pages a run touches; in the default order they are spread over the whole
# `.text` section and the kernel's 64 kB fault-around maps much of it (docs/ARCHITECTURE.md,
# Memory).
#
# Usage: packaging/symbol-order.sh [BINARY]
#   BINARY: a release build of flytracker with its symbols (default: the package's build,
#   `swift build -c release --static-swift-stdlib`, as build-deb.sh builds it).
# Needs: valgrind (callgrind). Run it again when the code a replay runs changes much; a stale
# order still links (symbols it names that no longer exist are skipped), it only packs less.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path)/flytracker}
[ -x "$bin" ] || { echo "symbol-order.sh: no binary at $bin (build it first)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "symbol-order.sh: needs valgrind (apt install valgrind)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind's reader gives up on Swift's DWARF 5; the symbol table is all it needs.
strip --strip-debug -o "$work/flytracker" "$bin"

profile() { # NAME ARGS…: a callgrind profile of one run, mangled names, one file.
    local name=$1; shift
    (cd "$work" && valgrind --tool=callgrind --demangle=no --compress-strings=no --dump-line=no \
        --callgrind-out-file="$work/$name.cg" "$work/flytracker" "$@" > /dev/null 2> "$work/$name.log") || {
        echo "symbol-order.sh: the $name run failed:" >&2; tail -n 20 "$work/$name.log" >&2; exit 1; }
}
# Self cost (instructions) of every function of the binary in one profile, costliest first.
costs() {
    awk -v bin="$work/flytracker" '
        /^ob=/      { ob = substr($0, 4); next }
        /^fn=/      { fn = substr($0, 4); sub(/'"'"'[0-9]+$/, "", fn)   # drop the recursion mark
                      mine = (ob == bin); if (mine && !(fn in cost)) cost[fn] = 0; next }
        /^calls=/   { skip = 1; next }                    # the next line is the call, not self
        /^[0-9+*-]/ { if (skip) { skip = 0; next } if (mine) cost[fn] += $2; next }
        END         { for (f in cost) print cost[f] "\t" f }' "$work/$1.cg" | sort -t$'\t' -k1,1nr | cut -f2
}

echo "symbol-order.sh: profiling a replay…" >&2
profile replay run --ifile "$root/Samples/modes1-2m4.bin" --iformat uc8 --sample-rate 2.4M --raw --quiet --no-db
echo "symbol-order.sh: profiling a simulated receiver with database, feeds and JSON (about 2 minutes)…" >&2
mkdir -p "$work/json"
profile receiver run --simulate --sim-duration 4 --sim-fast --db "$work/receiver.sqlite" --net \
    --net-bind-address 127.0.0.1 --json-dir "$work/json" --quiet

costs replay > "$work/replay.order"
costs receiver | awk 'NR == FNR { seen[$0] = 1; next } !($0 in seen)' "$work/replay.order" - > "$work/receiver.order"
cat "$work/replay.order" "$work/receiver.order" > "$root/packaging/flytracker.order"
echo "symbol-order.sh: $(wc -l < "$work/replay.order") functions for a replay, $(wc -l < "$work/receiver.order") more for a receiver → packaging/flytracker.order" >&2
