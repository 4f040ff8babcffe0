#!/bin/bash
# Checks a FlyTracker Debian package the way a user meets it (issue 28): lintian finds no
# error; in a fresh Debian root made with debootstrap (a chroot; Debian's packages are the only
# download) the package installs with apt, `flytracker --version` answers, `flytracker run
# --simulate` writes aircraft.json, `flytracker devices` says there is no dongle (exit 1), the
# binary links no Swift runtime library, a replay peaks under 21 MiB resident; installing it
# again over itself keeps the database and a changed configuration; purging it leaves nothing
# of it behind.
#
# Usage (as root): packaging/check-deb.sh flytracker_VERSION_ARCH.deb
# Needs: debootstrap, lintian, GNU time. Takes a few minutes (most of it debootstrap).
set -euo pipefail

deb=$(readlink -f "${1:?usage: check-deb.sh PACKAGE.deb}")
fail() { echo "check-deb.sh: FAIL: $*" >&2; exit 1; }
step() { echo "check-deb.sh: $*" >&2; }

step "lintian"
lintian --fail-on error "$deb" || fail "lintian reported errors"

suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\/\{0,1\}\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*\) .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n1)
[ -n "$mirror" ] || fail "no Debian mirror found in /etc/apt"
root=$(mktemp -d /var/tmp/flytracker-root.XXXXXX)
chmod 0755 "$root"   # the root of the chroot: every user must get through it
cleanup() {
    umount "$root/proc" 2>/dev/null || true
    umount "$root/dev" 2>/dev/null || true
    rm -rf "$root"
}
trap cleanup EXIT

step "debootstrap $suite from $mirror into $root"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >/dev/null || fail "debootstrap"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

step "install"
cp "$deb" "$root/tmp/flytracker.deb"
in_root apt-get install -y -q /tmp/flytracker.deb >/dev/null || fail "apt-get install"
in_root getent passwd flytracker >/dev/null || fail "no flytracker user"
in_root id -nG flytracker | grep -qw plugdev || fail "flytracker is not in plugdev"
[ -d "$root/var/lib/flytracker" ] || fail "no /var/lib/flytracker"
[ -f "$root/usr/lib/systemd/system/flytracker.service" ] || fail "no systemd unit"
[ -f "$root/usr/lib/udev/rules.d/60-flytracker-rtlsdr.rules" ] || fail "no udev rules"

step "flytracker --version"
in_root flytracker --version | grep -q '^[0-9]' || fail "--version"

step "no Swift runtime library linked"
if in_root ldd /usr/lib/flytracker/flytracker | grep -i swift; then fail "the binary links a Swift runtime library"; fi

step "peak memory of a replay"
# The installed binary, run here: 100 M samples of the real recording through standard input.
# Issue 25's goal is 20 MiB, met with the function order of build-deb.sh (18.5-20.1 MB here;
# without the order 23.5-24 MB). How much the kernel maps around each fault depends on how the
# file's pages came into the page cache (a file just written with write(), as dpkg writes
# it, is held in larger pieces: up to 1.4 MB more here), so the gate leaves 1 MiB for that: it
# catches a lost or stale order, not the last few hundred kB.
sample="$(cd "$(dirname "$0")/.." && pwd)/Samples/modes1-2m4.bin"
peak_file=$(mktemp)
for _ in $(seq 234); do cat "$sample"; done | /usr/bin/time -o "$peak_file" -f %M "$root/usr/lib/flytracker/flytracker" \
    run --ifile - --iformat uc8 --sample-rate 2.4M --raw --quiet --no-db > /dev/null || fail "the replay failed"
peak=$(tail -n 1 "$peak_file"); rm -f "$peak_file"
step "  peak resident set ${peak} KiB"
[ "$peak" -le 21504 ] || fail "a replay peaked at ${peak} KiB (more than 21 MiB)"

step "run --simulate as the service user"
in_root su -s /bin/sh flytracker -c "flytracker run --simulate --sim-fast --sim-duration 4 --no-db --json-dir /tmp/json --quiet" \
    || fail "run --simulate"
in_root grep -q '"aircraft"' /tmp/json/aircraft.json || fail "no aircraft.json"
in_root grep -q '"hex"' /tmp/json/aircraft.json || fail "aircraft.json holds no aircraft"

step "devices: no dongle, exit 1 and a clear message"
set +e
message=$(in_root flytracker devices 2>&1); status=$?
set -e
[ "$status" -eq 1 ] || fail "devices exited $status"
echo "$message" | grep -qi "no rtl-sdr\|no dongle\|not found\|no device" || fail "devices said: $message"

step "upgrade over itself keeps the database and the configuration"
in_root sh -c "echo 'correct horse battery' | flytracker users add alice --db /var/lib/flytracker/flytracker.sqlite" >/dev/null
in_root sed -i 's/^EXTRA_OPTIONS=.*/EXTRA_OPTIONS="--quiet --fast"/' /etc/default/flytracker
in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --reinstall -o Dpkg::Options::=--force-confold /tmp/flytracker.deb" >/dev/null \
    || fail "reinstall"
in_root flytracker users list --db /var/lib/flytracker/flytracker.sqlite | grep -q alice || fail "the database was lost"
grep -q -- '--fast' "$root/etc/default/flytracker" || fail "the configuration was replaced"

step "purge leaves nothing behind"
in_root apt-get purge -y -q flytracker >/dev/null || fail "purge"
for path in /usr/lib/flytracker /usr/bin/flytracker /var/lib/flytracker /etc/default/flytracker \
            /usr/lib/systemd/system/flytracker.service /usr/lib/udev/rules.d/60-flytracker-rtlsdr.rules; do
    [ ! -e "$root$path" ] && [ ! -L "$root$path" ] || fail "$path is still there"
done
if in_root getent passwd flytracker >/dev/null; then fail "the flytracker user is still there"; fi
step "all checks passed"
