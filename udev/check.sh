#!/bin/sh
# Checks udev/60-flytracker-rtlsdr.rules against the RTL2832U vendor:product
# list in FORMATS.md (../shared/docs/FORMATS.md relative to the repo root):
#   - every pair in FORMATS.md has exactly one rule line, and no rule line has
#     a pair that FORMATS.md does not list;
#   - every rule line carries SUBSYSTEMS=="usb", ENV{ID_SOFTWARE_RADIO}="1",
#     MODE="0660" and GROUP="plugdev";
#   - the blacklist file blacklists dvb_usb_rtl28xxu, rtl2832 and e4000.
# Exits 0 when all hold, 1 on any mismatch, 2 when an input is missing.
# Usage: sh udev/check.sh [path/to/FORMATS.md]
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
formats=${1:-"$root/../shared/docs/FORMATS.md"}
rules="$here/60-flytracker-rtlsdr.rules"
blacklist="$here/flytracker-blacklist-rtl.conf"

for f in "$formats" "$rules" "$blacklist"; do
    if [ ! -r "$f" ]; then
        echo "check.sh: cannot read $f" >&2
        exit 2
    fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Pairs listed in FORMATS.md: the vvvv:pppp tokens of the RTL2832U section
# (from its heading to the next heading or end of file).
awk '/^## /{insec = ($0 ~ /RTL2832U/)} insec' "$formats" \
    | grep -oE '\b[0-9a-fA-F]{4}:[0-9a-fA-F]{4}\b' \
    | tr 'A-F' 'a-f' | sort > "$tmp/expected"
if [ ! -s "$tmp/expected" ]; then
    echo "check.sh: no vendor:product pairs found in $formats" >&2
    exit 2
fi

fail=0
# Rule lines: every non-comment, non-blank line.
grep -vE '^[[:space:]]*(#|$)' "$rules" > "$tmp/lines"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    for attr in 'SUBSYSTEMS=="usb"' 'ENV{ID_SOFTWARE_RADIO}="1"' 'MODE="0660"' 'GROUP="plugdev"'; do
        case $line in
            *"$attr"*) ;;
            *) echo "rule line $n lacks $attr: $line"; fail=1 ;;
        esac
    done
    v=$(printf '%s\n' "$line" | sed -nE 's/.*ATTRS\{idVendor\}=="([0-9a-fA-F]{4})".*/\1/p')
    p=$(printf '%s\n' "$line" | sed -nE 's/.*ATTRS\{idProduct\}=="([0-9a-fA-F]{4})".*/\1/p')
    if [ -z "$v" ] || [ -z "$p" ]; then
        echo "rule line $n lacks ATTRS{idVendor}/ATTRS{idProduct}: $line"
        fail=1
        continue
    fi
    echo "$v:$p" | tr 'A-F' 'a-f' >> "$tmp/actual"
done < "$tmp/lines"
touch "$tmp/actual"
sort "$tmp/actual" > "$tmp/actual.sorted"

missing=$(comm -23 "$tmp/expected" "$tmp/actual.sorted")
extra=$(comm -13 "$tmp/expected" "$tmp/actual.sorted")
dups=$(uniq -d "$tmp/actual.sorted")
[ -n "$missing" ] && { echo "pairs in FORMATS.md without a rule:"; echo "$missing" | sed 's/^/  /'; fail=1; }
[ -n "$extra" ] && { echo "rules for pairs not in FORMATS.md:"; echo "$extra" | sed 's/^/  /'; fail=1; }
[ -n "$dups" ] && { echo "pairs with more than one rule:"; echo "$dups" | sed 's/^/  /'; fail=1; }

for mod in dvb_usb_rtl28xxu rtl2832 e4000; do
    if ! grep -qE "^[[:space:]]*blacklist[[:space:]]+$mod[[:space:]]*$" "$blacklist"; then
        echo "blacklist file does not blacklist $mod"
        fail=1
    fi
done

expected=$(wc -l < "$tmp/expected" | tr -d ' ')
actual=$(wc -l < "$tmp/actual.sorted" | tr -d ' ')
if [ "$fail" -eq 0 ]; then
    echo "udev check: ok ($expected pairs in FORMATS.md, $actual rule lines, blacklist ok)"
    exit 0
fi
echo "udev check: FAILED ($expected pairs in FORMATS.md, $actual rule lines)"
exit 1
