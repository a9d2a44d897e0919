#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those that are missing.
# Usage: scripts/install-deps.sh [pulse|pipewire|all]   (default: pulse)
set -euo pipefail

want=${1:-pulse}
# libsystemd-dev: sd-bus, for the MPRIS players (docs/mpris.md). dbus (dbus-daemon), mpv,
# mpv-mpris and playerctl: the MPRIS tests' private session bus and real player. espeak-ng and
# speech-dispatcher (with its espeak-ng module, spd-say): the speech that the desktop tests and
# docs/apps.md "Speech" run.
# librsvg2-bin (rsvg-convert): the timeline tests draw every example's SVG with it.
packages=(libpulse-dev libyaml-dev libsystemd-dev pulseaudio pulseaudio-utils librsvg2-bin)
case "$want" in
  pulse) ;;
  pipewire|all)
    packages+=(pipewire pipewire-pulse wireplumber dbus mpv mpv-mpris playerctl espeak-ng
      speech-dispatcher speech-dispatcher-espeak-ng) ;;
  *) echo "install-deps.sh: unknown set '$want'; valid sets are: pulse, pipewire, all" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps.sh: these packages are missing and I am not root: ${missing[*]}" >&2
  echo "  install them with: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
