#!/usr/bin/env bash
# Writes scripts/section-order.txt: the functions a running daemon executes, hottest first, as
# the section names the release link places together, in that order (`make release` links with
# gold's --section-ordering-file). Then what a daemon runs after start-up sits in about 1 MiB
# instead of being spread over 13 MiB of code, and the kernel's 64 KiB
# fault-around brings back far less of the binary that a busy daemon has touched since
# ResidentCode.trim() last released it (docs/modules.md "What sessionctl links").
#
# How: the release daemon runs under valgrind's callgrind on a private PulseAudio server of its
# own (own XDG_RUNTIME_DIR, -n, module-native-protocol-unix; stopped by the PID it wrote).
# callgrind dumps its counters each time ResidentCode.trim() returns (the daemon trims once quiet
# for ResidentCode.quietSeconds, after start-up and after each burst of work); once start-up's
# trim is done, a session plays and stops, a voice call starts and ends, and other programs'
# streams (pacat, media.role music, then phone) come and go; the functions run from then on, over
# every dump, are written out by cost. A stale file is harmless: names it lists that
# the code no longer has are ignored, and new functions keep the linker's default place.
#
# Usage: make section-order   (builds the release binary first). Needs valgrind
# (scripts/install-deps.sh profile). SECTION_ORDER_KEEP=1 keeps the callgrind dumps and logs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
binary="$root/.build/release/audiosessiond"
output="$root/scripts/section-order.txt"
[ -x "$binary" ] || { echo "section-order.sh: no $binary: run 'make release' first" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "section-order.sh: valgrind is missing: run scripts/install-deps.sh profile" >&2; exit 1; }

work=$(mktemp -d /tmp/section-order.XXXXXX)
server_pid=""
daemon_pid=""
cleanup() {
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  sleep 0.5
  [ -n "${SECTION_ORDER_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift toolchain writes; the symbol table
# is all callgrind needs to name functions.
cp "$binary" "$work/audiosessiond"
strip --strip-debug "$work/audiosessiond"

mkdir -m 700 "$work/xdg"
export XDG_RUNTIME_DIR="$work/xdg" HOME="$work"
pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=yes \
  -L "module-native-protocol-unix auth-anonymous=1 socket=$work/native" \
  -L "module-null-sink sink_name=speaker sink_properties=device.description=Speaker" \
  >"$work/pulseaudio.log" 2>&1 &
for _ in $(seq 100); do [ -f "$XDG_RUNTIME_DIR/pulse/pid" ] && [ -S "$work/native" ] && break; sleep 0.1; done
server_pid=$(cat "$XDG_RUNTIME_DIR/pulse/pid" 2>/dev/null) || { echo "section-order.sh: PulseAudio did not start; its log:" >&2; cat "$work/pulseaudio.log" >&2; exit 1; }
export PULSE_SERVER="unix:$work/native"

socket="$work/session.sock"
# A dump each time ResidentCode.trim() returns: the first after start-up.
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" --dump-instr=no \
  --compress-strings=no --compress-pos=no --demangle=no \
  --dump-after='$s18AudioSessionSystem12ResidentCodeO4trim*' \
  "$work/audiosessiond" --backend pulse --policies "$root/policies" --socket "$socket" \
  >"$work/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 600); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "section-order.sh: the daemon did not start; its log:" >&2; cat "$work/daemon.log" >&2; exit 1; }
for _ in $(seq 600); do [ -s "$work/callgrind.out.1" ] && break; sleep 0.1; done
[ -s "$work/callgrind.out.1" ] || { echo "section-order.sh: no dump after ResidentCode.trim()" >&2; exit 1; }
# Start-up may have gone quiet more than once under valgrind's slowness: past the quiet period
# (2 s) and some more, the dumps so far are start-up's.
sleep 5
start_dumps=$(ls "$work" | grep -c '^callgrind\.out\.[0-9]*$')

run() { "$root/.build/release/sessionctl" "$@" --socket "$socket" --timeout 30 >/dev/null; }
run set playback --session music
run activate --session music
run play --session music
run stop --session music
run deactivate --session music
run set playAndRecord --mode voiceChat --session voip
run activate --session voip
run deactivate --session voip --notify-others
run status
timeout 4 pacat --property=media.role=music --property=application.name=profile-music </dev/zero &
music=$!
sleep 1.5
timeout 1.5 pacat --property=media.role=phone --property=application.name=profile-phone </dev/zero || true
wait "$music" || true
sleep 1
run status
# Under valgrind the daemon runs some 50 times slower: give what it does after a command (the
# state file, the changes file, written after a delay) time to happen before the dump.
sleep 8
# The last dump: the rest of the work a running daemon does.
callgrind_control --dump=work "$daemon_pid" >/dev/null
work_dumps=$(ls "$work" | grep -c '^callgrind\.out\.[0-9]*$')
kill "$daemon_pid"
wait "$daemon_pid" || true
daemon_pid=""

python3 - "$work" "$start_dumps" "$work_dumps" "$output" <<'EOF'
import os, re, sys
work_folder, output = sys.argv[1], sys.argv[4]
start_dumps, work_dumps = int(sys.argv[2]), int(sys.argv[3])


def costs(dump):
    """Each function of audiosessiond a callgrind dump names, with its own cost."""
    cost, obj, function, callee = {}, None, None, False
    for line in open(dump, errors="replace"):
        if line.startswith("ob="):
            obj = line[3:].strip()
        elif line.startswith("fn="):
            # callgrind marks a function's recursion levels with 'N; the name precedes it.
            name = re.sub(r"'\d+$", "", line[3:].strip())
            mine = obj and obj.endswith("/audiosessiond") and not name.startswith("0x")
            function = name if mine else None
            if function is not None:
                cost.setdefault(function, 0)
        elif line.startswith("calls="):
            # The cost line after calls= is the callee's, not this function's.
            callee = True
        elif line[:1].isdigit():
            if function is not None and not callee:
                cost[function] += int(line.split()[1])
            callee = False
    return cost


# The dumps after start-up's and up to the last one asked for (not the exit's): callgrind.out.N,
# numbered in the order written.
work = {}
for number in range(start_dumps + 1, work_dumps + 1):
    for name, cost in costs(os.path.join(work_folder, f"callgrind.out.{number}")).items():
        work[name] = work.get(name, 0) + cost
if not work:
    sys.exit("section-order.sh: callgrind recorded no function of audiosessiond")
# What ran after start-up, by cost. (Adding what ran only in start-up, for what runs on either
# side of the trim as threads happen to go, made no difference: 10.6 MiB both.)
order = sorted(work, key=lambda n: (-work[n], n))
# gold's --section-ordering-file names input sections; with function sections, a function's is
# .text.<its symbol>. Functions the libraries keep together in one .text stay where they are.
with open(output, "w") as out:
    for name in order:
        out.write(".text." + name + "\n")
print(f"section-order.sh: wrote {len(order)} functions to {output}")
EOF
