#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those that are missing.
# Usage: scripts/install-deps.sh [pulse|pipewire|all]   (default: pulse)
set -euo pipefail

want=${1:-pulse}
# libsystemd-dev: sd-bus, for the MPRIS players (docs/mpris.md). dbus (dbus-daemon), mpv,
# mpv-mpris and playerctl: the MPRIS tests' private session bus and real player. espeak-ng and
# speech-dispatcher (with its espeak-ng module, spd-say): the speech that the desktop tests and
# docs/apps.md "Speech" run. chromium: the headless browser that `make soak` plays a page's
# <audio> in (docs/soak.md).
# librsvg2-bin (rsvg-convert): the timeline tests draw every example's SVG with it.
# PipeWire 1.4 and WirePlumber 0.5 (what current desktops run) come from Debian's own
# bookworm-backports suite, with wireplumber-doc for its role-policy example
# (media-role-nodes.conf); docs/pulseaudio.md §2.2 names the versions the tests run on.
packages=(libpulse-dev libyaml-dev libsystemd-dev pulseaudio pulseaudio-utils librsvg2-bin)
backports=()
case "$want" in
  pulse) ;;
  pipewire|all)
    packages+=(dbus mpv mpv-mpris playerctl espeak-ng speech-dispatcher
      speech-dispatcher-espeak-ng chromium)
    backports=(pipewire pipewire-bin pipewire-pulse wireplumber wireplumber-doc) ;;
  *) echo "install-deps.sh: unknown set '$want'; valid sets are: pulse, pipewire, all" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A backports package counts as installed only in its backports version (1.4 and 0.5, not
# bookworm's 0.3.65 and 0.4.13).
missing_bpo=()
for p in "${backports[@]}"; do
  dpkg-query -W -f='${Version}' "$p" 2>/dev/null | grep -q "bpo12" || missing_bpo+=("$p")
done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_bpo[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps.sh: these packages are missing and I am not root: ${missing[*]}" >&2
  echo "  install them with: apt-get install ${missing[*]}" >&2
  [ ${#missing_bpo[@]} -eq 0 ] ||
    echo "  and, from bookworm-backports: apt-get install -t bookworm-backports ${missing_bpo[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing_bpo[@]} -gt 0 ]; then
  list=/etc/apt/sources.list.d/audiosession-bookworm-backports.sources
  if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "Adding Debian's bookworm-backports suite: $list"
    printf '%s\n' "Types: deb" "URIs: http://deb.debian.org/debian" "Suites: bookworm-backports" \
      "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
      "${sudo[@]}" tee "$list" >/dev/null
  fi
fi
"${sudo[@]}" apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ${#missing_bpo[@]} -gt 0 ]; then
  echo "Installing from bookworm-backports: ${missing_bpo[*]}"
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends -t bookworm-backports \
    "${missing_bpo[@]}" >/dev/null
fi
