#!/bin/bash
# Builds the Debian package of FlyTracker for the architecture of this machine (amd64 here,
# arm64 on a 64-bit Raspberry Pi OS): a stripped release binary with the Swift runtime linked
# in (--static-swift-stdlib), its resources, the udev rules and DVB driver blacklist, systemd
# units for the receiver and the aggregator, their options in /etc/default/flytracker.
# Depends: only Debian's runtime libraries the binary links, found by dpkg-shlibdeps; the image
# library for profile pictures is loaded at run time and only recommended.
#
# Usage: packaging/build-deb.sh [OUTPUT_DIR]     (default: the repository's top directory)
# Needs: the Swift toolchain and the build's -dev packages (README), dpkg-dev, fakeroot.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root}
cd "$root"

version=$(sed -n 's/.*version: "\([0-9][0-9.]*\)".*/\1/p' Sources/FlyTrackerCLI/FlyTracker.swift | head -n1)
[ -n "$version" ] || { echo "build-deb.sh: no version in FlyTracker.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
# The Debian revision: the package's own changes on the same release.
revision=${FLYTRACKER_DEB_REVISION:-1}
maintainer=${DEBFULLNAME:-FlyTracker developers}" <"${DEBEMAIL:-flytracker@example.org}">"
package="flytracker_${version}-${revision}_${arch}"

echo "build-deb.sh: building flytracker $version for $arch (release, Swift runtime linked in)…" >&2
# Every function in a section of its own, so that lld can lay them out in the order of
# packaging/flytracker.order (the code a replay and a receiver run, packed together; written
# by packaging/symbol-order.sh): a replay then touches 5 MB fewer code pages (ARCHITECTURE.md,
# Memory). Symbols the order names that no longer exist are skipped without a warning.
layout=(-Xswiftc -Xfrontend -Xswiftc -function-sections
        -Xlinker "--symbol-ordering-file=$root/packaging/flytracker.order" -Xlinker --no-warn-symbol-ordering)
swift build -c release --static-swift-stdlib --product flytracker "${layout[@]}" >&2
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pkg="$stage/$package"
install -d "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/usr/lib/flytracker" "$pkg/usr/lib/udev/rules.d" \
    "$pkg/usr/lib/modprobe.d" "$pkg/usr/lib/systemd/system" "$pkg/etc/default" "$pkg/usr/share/doc/flytracker" \
    "$pkg/usr/share/lintian/overrides"

# The binary and the resource bundles it finds beside its real path (/usr/lib/flytracker).
install -m 0755 "$bin/flytracker" "$pkg/usr/lib/flytracker/flytracker"
strip --strip-unneeded "$pkg/usr/lib/flytracker/flytracker"
for bundle in "$bin"/*.resources; do
    [ -d "$bundle" ] || continue
    cp -r "$bundle" "$pkg/usr/lib/flytracker/"
done
find "$pkg/usr/lib/flytracker" -type d -exec chmod 0755 {} +
find "$pkg/usr/lib/flytracker" -type f ! -name flytracker -exec chmod 0644 {} +
ln -s ../lib/flytracker/flytracker "$pkg/usr/bin/flytracker"

install -m 0644 udev/60-flytracker-rtlsdr.rules "$pkg/usr/lib/udev/rules.d/60-flytracker-rtlsdr.rules"
install -m 0644 udev/flytracker-blacklist-rtl.conf "$pkg/usr/lib/modprobe.d/flytracker-blacklist-rtl.conf"
install -m 0644 packaging/debian/flytracker.service packaging/debian/flytracker-aggregator.service "$pkg/usr/lib/systemd/system/"
install -m 0644 packaging/debian/default "$pkg/etc/default/flytracker"
install -m 0644 README.md "$pkg/usr/share/doc/flytracker/README.md"
gzip -9n "$pkg/usr/share/doc/flytracker/README.md"
install -m 0644 packaging/debian/copyright "$pkg/usr/share/doc/flytracker/copyright"
install -m 0644 packaging/debian/lintian-overrides "$pkg/usr/share/lintian/overrides/flytracker"
printf 'flytracker (%s-%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
    "$version" "$revision" "$version" "$maintainer" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" \
    | gzip -9n > "$pkg/usr/share/doc/flytracker/changelog.Debian.gz"
chmod 0644 "$pkg/usr/share/doc/flytracker/changelog.Debian.gz"

for script in postinst prerm postrm; do install -m 0755 "packaging/debian/$script" "$pkg/DEBIAN/$script"; done
echo /etc/default/flytracker > "$pkg/DEBIAN/conffiles"

# Depends: what the binary links, as Debian's packages name it.
mkdir -p "$stage/debian"
: > "$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O -e"$pkg/usr/lib/flytracker/flytracker" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Packed relative relocations (Package.swift's release link) need glibc 2.36's loader, which
# this dpkg-shlibdeps does not know to ask for.
if readelf -V "$pkg/usr/lib/flytracker/flytracker" | grep -q GLIBC_ABI_DT_RELR; then
    depends=$(echo "$depends" | sed -E 's/libc6 \(>= 2\.(3[0-5]|[12][0-9]|[0-9])(\.[0-9]+)?\)/libc6 (>= 2.36)/')
fi
# Recommends: the image library, loaded at run time for profile pictures (optional).
recommends=""
for so in /usr/lib/*/libMagickWand-6.Q16.so.6 /usr/lib/*/libMagickWand-6.Q16.so.7; do
    if [ -e "$so" ]; then recommends=$(dpkg -S "$(readlink -f "$so")" | cut -d: -f1 | head -n1); break; fi
done
size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: flytracker
Version: $version-$revision
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends, adduser
${recommends:+Recommends: $recommends
}Section: hamradio
Priority: optional
Homepage: https://flytracker.invalid/
Description: ADS-B / Mode S receiver and decoder for RTL-SDR dongles
 FlyTracker decodes every aircraft in radio range from an RTL-SDR dongle, an IQ
 recording or its built-in simulator, keeps a database of sightings, users,
 watchlists, alerts and statistics, and speaks the hobby's formats (Beast, AVR,
 SBS, aircraft.json) so feeders, tar1090 and Virtual Radar Server plug in.
 It runs as a system service (flytracker.service), or as an aggregator of many
 receivers (flytracker-aggregator.service).
CONTROL

mkdir -p "$out"
fakeroot dpkg-deb --root-owner-group --build "$pkg" "$out/$package.deb" >&2
echo "$out/$package.deb"
