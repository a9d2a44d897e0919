#!/bin/sh
# Builds the Debian package of the release build: `make deb` (docs/install.md "A Debian package").
#
# The package's tree is what `make install-files` installs with PREFIX=/usr, staged in
# .build/deb/root (the programs, the policies, the systemd user unit, the manual page, the shell
# completions), the manual page compressed as Debian wants it. Its dependencies are the Debian
# packages that hold the shared libraries the programs link (libpulse0, libsystemd0, libyaml-0-2,
# libc6…), with the versions dpkg-shlibdeps reads from this machine's symbol files, so the
# package installs with `apt install ./FILE.deb` on a Debian 12 that has none of them yet.
#
# Usage: scripts/make-deb.sh  (from the repository root, after `make release`)
# Environment: DEB_MAINTAINER (default: the last commit's author), DEB_OUTPUT (default: .build).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

name=audiosession
version=$(sed -n 's/.*static let current = "\(.*\)"$/\1/p' \
  Sources/AudioSession/Model/PackageVersion.swift)
architecture=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}
[ -n "$maintainer" ] || maintainer="AudioSession for Linux <audiosession@localhost>"
output=${DEB_OUTPUT:-.build}
work=.build/deb
stage=$work/root

rm -rf "$work"
mkdir -p "$stage/DEBIAN" "$work/source/debian"
make --no-print-directory install-files DESTDIR="$root/$stage" PREFIX=/usr \
  SYSTEMD_USER_UNIT_DIR=/usr/lib/systemd/user
gzip -9n "$stage/usr/share/man/man1/"*.1
for program in "$stage/usr/bin/"*; do strip --strip-unneeded "$program"; done

# dpkg-shlibdeps reads the package's name from a source tree's debian/control; a minimal one.
printf 'Source: %s\nMaintainer: %s\n\nPackage: %s\nArchitecture: any\n' \
  "$name" "$maintainer" "$name" > "$work/source/debian/control"
depends=$(cd "$work/source" && dpkg-shlibdeps -O $(for program in "$root/$stage/usr/bin/"*; do
  printf ' -e%s' "$program"; done) | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: $name
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Suggests: pulseaudio | pipewire-pulse
Section: sound
Priority: optional
Description: AVAudioSession's semantics for Linux: the audio session daemon and sessionctl
 Apps declare what their audio is for (category, mode, options); the daemon decides who is
 interrupted, ducked, muted or paused and which route each session gets, on the user's
 PulseAudio or pipewire-pulse server, and tells every app why. sessionctl configures sessions,
 watches notifications and replays scenario files.
 .
 The systemd user unit is installed but not enabled; as a user:
 systemctl --user enable --now audiosession
EOF
# The files' modes as install(1) left them; the tree's own folders 0755 whatever the umask.
find "$stage" -type d -exec chmod 755 {} +
file="$output/${name}_${version}_${architecture}.deb"
dpkg-deb --root-owner-group --build "$stage" "$file" > /dev/null
echo "Wrote $file ($(du -h "$file" | cut -f1)): $(dpkg-deb --field "$file" Depends)"
