#!/usr/bin/env bash
# Runs the command blocks of the README and the docs as written, so that they stay true.
#
# Usage: scripts/check-docs.sh [MARKDOWN-FILE ...]
#   (default: README.md, docs/*.md, examples/README.md, policies/README.md)
#
# How a Markdown file marks its blocks:
#   ```sh        run: its lines are one bash script (set -e), run in a copy of the checkout's
#                documents and data (README.md, docs, examples, policies, contrib; .build linked).
#                Commands ending in '&' run in the background and are stopped by PID at the
#                end of the block.
#   ```console   run and compare: '$ COMMAND' lines are run one by one; the lines after each,
#                up to the next '$ ', are its expected output (standard output and error).
#                A line '...' stands for any number of lines.
#   ```yaml, ```json, ```swift, ```text, …   not commands: not run.
#   ```          (no language) is a failure: say which of the above it is.
# An HTML comment on the line just before a fence changes how a block runs:
#   <!-- check-docs: skip: REASON -->          not run (reported with REASON; REASON required)
#   <!-- check-docs: pulse -->                 a private pulseaudio server runs for the block, at
#                                              $XDG_RUNTIME_DIR/pulse/native (stopped by PID)
#   <!-- check-docs: env NAME=VALUE ... -->    extra environment for the block
# Several directives may share one comment, separated by ';' (skip must be the last).
#
# Every block runs in a sandbox of its own: an empty XDG_RUNTIME_DIR (so the default daemon socket
# and PulseAudio socket are private), a private HOME, PATH starting with the built .build/debug
# (so 'sessionctl' is the checkout's), AUDIOSESSION_AUTOSTART=0 unless the block says otherwise,
# and no other AUDIOSESSION_* or PULSE_* variable. 'swift run NAME ARGS' runs the already-built
# .build/debug/NAME (this script never builds: 'make test' has built the debug binaries). At the
# end of a block its background jobs, any daemon holding the sandbox's socket lock and the private
# pulseaudio are stopped by PID, and the sandbox is removed. Nothing touches the user's server
# or socket.
#
# The report lists every block run, skipped (with its reason) or failed (file:line, the command,
# expected and actual output), and ends with the line 'N passed, M failed'. The exit status is 1
# when a block failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${CHECK_DOCS_BIN:-$root/.build/debug}
block_timeout=${CHECK_DOCS_TIMEOUT:-60}

if [ ! -x "$bin/sessionctl" ]; then
  echo "check-docs: $bin/sessionctl is missing; build first ('swift build --build-tests' or 'make test')" >&2
  exit 2
fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  cd "$root"
  files=(README.md docs/*.md examples/README.md policies/README.md)
fi

passed=0
failed=0
skipped=0
skip_reasons=()
failures=()

work=$(mktemp -d "${TMPDIR:-/tmp}/check-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- sandbox --------------------------------------------------------------------------------

# Makes a fresh sandbox in $sandbox; its environment is in $sandbox/env (NAME=VALUE lines).
new_sandbox() {
  sandbox=$(mktemp -d "$work/block.XXXXXX")
  chmod 700 "$sandbox"
  mkdir -m 700 "$sandbox/run" "$sandbox/home" "$sandbox/checkout"
  # The block's working directory: a copy of the checkout's documents and data (so a block may
  # write files without touching the checkout), with the built .build linked in.
  local entry
  for entry in README.md docs examples policies contrib; do
    [ -e "$root/$entry" ] && cp -R "$root/$entry" "$sandbox/checkout/"
  done
  ln -s "$root/.build" "$sandbox/checkout/.build"
  {
    echo "PATH=$bin:$PATH"
    echo "HOME=$sandbox/home"
    echo "XDG_RUNTIME_DIR=$sandbox/run"
    echo "AUDIOSESSION_AUTOSTART=0"
    echo "LANG=${LANG:-C.UTF-8}"
    echo "USER=${USER:-$(id -un)}"
    echo "LOGNAME=${LOGNAME:-$(id -un)}"
    echo "TERM=dumb"
  } >"$sandbox/env"
  # Sourced by every command of the block: 'swift run NAME' runs the built binary.
  cat >"$sandbox/preamble.sh" <<EOF
swift() {
  if [ "\${1:-}" = run ] && [ \$# -ge 2 ]; then
    shift; local product=\$1; shift
    "$bin/\$product" "\$@"
  else
    echo "check-docs: only 'swift run NAME' can run in a doc block (it runs $bin/NAME)" >&2
    return 127
  fi
}
# At the end of an sh block: its background jobs get SIGTERM, then SIGKILL after 5 s.
check_docs_alive() {
  local state
  state=\$(sed 's/.*) //' "/proc/\$1/stat" 2>/dev/null | cut -c1)
  [ -n "\$state" ] && [ "\$state" != Z ]
}
check_docs_stop() {
  local p i
  for p in \$(jobs -p); do kill -TERM "\$p" 2>/dev/null || true; done
  for p in \$(jobs -p); do
    for i in \$(seq 50); do check_docs_alive "\$p" || break; sleep 0.1; done
    kill -KILL "\$p" 2>/dev/null || true
  done
  wait
}
EOF
}

# Runs "$@" with the sandbox's environment only.
in_sandbox() {
  local -a vars=()
  mapfile -t vars <"$sandbox/env"
  (cd "$sandbox/checkout" && env -i "${vars[@]}" "$@")
}

# Starts a private pulseaudio in the sandbox (its socket is $XDG_RUNTIME_DIR/pulse/native).
start_pulse() {
  if ! command -v pulseaudio >/dev/null; then
    echo "pulseaudio is not installed (scripts/install-deps.sh pulse)"
    return 1
  fi
  in_sandbox pulseaudio --daemonize=yes -n --exit-idle-time=-1 --use-pid-file=yes \
    --log-target="file:$sandbox/pulse.log" -L module-native-protocol-unix \
    -L "module-null-sink sink_name=speaker sink_properties='device.description=Speaker device.form_factor=internal'" \
    2>&1
}

# Whether PID is alive, runs COMMAND and has this sandbox's XDG_RUNTIME_DIR in its environment
# (so a reused PID, or another user's process of the same name, is never signalled).
pid_is_ours() {
  local pid=$1 command=$2
  [ -n "$pid" ] && [ -r "/proc/$pid/environ" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$command" || return 1
  tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "XDG_RUNTIME_DIR=$sandbox/run"
}

# Sends SIGTERM to PID, waits up to 5 s, then SIGKILL.
stop_pid() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 50); do
    [ -d "/proc/$pid" ] && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ] || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

# Stops what the block left running in the sandbox: a daemon holding the sandbox's socket lock
# (started by a command, or left by a timed-out block), then the private pulseaudio.
clean_sandbox() {
  local lock="$sandbox/run/audiosession/daemon.sock.lock" pid
  if [ -f "$lock" ]; then
    pid=$(tr -dc '0-9' <"$lock" | head -c 12)
    # audiosessiond, or `sessionctl daemon` not yet running it in its place.
    if pid_is_ours "$pid" audiosessiond || pid_is_ours "$pid" sessionctl; then stop_pid "$pid"; fi
  fi
  if [ -f "$sandbox/run/pulse/pid" ]; then
    pid=$(tr -dc '0-9' <"$sandbox/run/pulse/pid")
    if pid_is_ours "$pid" pulseaudio; then stop_pid "$pid"; fi
  fi
}

# --- matching -------------------------------------------------------------------------------

# Whether the lines of file $2 match the expected lines of file $1, where a line '...' matches
# any number of lines (the usual '*' matching, on lines).
lines_match() {
  local -a want got
  mapfile -t want <"$1"
  mapfile -t got <"$2"
  local w=0 g=0 star=-1 mark=0 nw=${#want[@]} ng=${#got[@]}
  while [ "$g" -lt "$ng" ]; do
    if [ "$w" -lt "$nw" ] && [ "${want[$w]}" = "..." ]; then
      star=$w; mark=$g; w=$((w + 1))
    elif [ "$w" -lt "$nw" ] && [ "${want[$w]}" = "${got[$g]}" ]; then
      w=$((w + 1)); g=$((g + 1))
    elif [ "$star" -ge 0 ]; then
      w=$((star + 1)); mark=$((mark + 1)); g=$mark
    else
      return 1
    fi
  done
  while [ "$w" -lt "$nw" ] && [ "${want[$w]}" = "..." ]; do w=$((w + 1)); done
  [ "$w" -eq "$nw" ]
}

# Removes trailing empty lines from file $1.
trim_trailing_blank() {
  local -a lines
  mapfile -t lines <"$1"
  local n=${#lines[@]}
  while [ "$n" -gt 0 ] && [ -z "${lines[$((n - 1))]}" ]; do n=$((n - 1)); done
  if [ "$n" -gt 0 ]; then printf '%s\n' "${lines[@]:0:$n}" >"$1"; else : >"$1"; fi
}

# --- running blocks -------------------------------------------------------------------------

report_failure() {
  failed=$((failed + 1))
  failures+=("$1")
  printf 'FAIL %s\n' "$1"
  shift
  local line
  for line in "$@"; do printf '     %s\n' "$line"; done
}

# run_sh FILE LINE LANG: runs $block (the lines of the block) as one bash script.
run_sh() {
  local file=$1 line=$2
  local script="$sandbox/block.sh" log="$sandbox/block.log" status=0
  # The script's first 3 lines are its own, so that line L of the script is line (fence + L - 3).
  {
    echo "set -eo pipefail; source '$sandbox/preamble.sh'"
    echo "trap 'echo \"check-docs: line \$((LINENO - 3)) of the block failed (status \$?): \$BASH_COMMAND\" >&2' ERR"
    echo "trap check_docs_stop EXIT"
    printf '%s\n' "${block[@]}"
  } >"$script"
  in_sandbox timeout --kill-after=5 "$block_timeout" bash --noprofile --norc "$script" \
    >"$log" 2>&1 </dev/null || status=$?
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'ok   %s:%s (sh, %s commands)\n' "$file" "$line" "$(grep -cvE '^\s*(#|$)' <<<"$(printf '%s\n' "${block[@]}")")"
    return
  fi
  local at where=$line
  at=$(sed -n 's/^check-docs: line \([0-9]*\) of the block failed.*/\1/p' "$log" | tail -1)
  [ -n "$at" ] && where=$((line + at))
  local -a detail=("command: ${block[$((${at:-1} - 1))]:-?}")
  [ "$status" -eq 124 ] && detail+=("the block did not finish within ${block_timeout} s")
  detail+=("expected: exit status 0" "actual: exit status $status; output:")
  mapfile -t -O "${#detail[@]}" detail < <(sed 's/^/  /' "$log" | tail -40)
  report_failure "$file:$where (sh block at line $line)" "${detail[@]}"
}

# run_console FILE LINE: runs each '$ COMMAND' of $block and compares its output.
run_console() {
  local file=$1 line=$2 i=0 n=${#block[@]} ok=1 count=0
  while [ "$i" -lt "$n" ]; do
    local entry=${block[$i]}
    if [[ "$entry" != '$ '* ]]; then
      report_failure "$file:$((line + 1 + i)) (console block at line $line)" \
        "a console block starts with a '\$ COMMAND' line; found: $entry"
      return
    fi
    local command=${entry#\$ } at=$((line + 1 + i))
    local want="$sandbox/want" got="$sandbox/got"
    : >"$want"
    i=$((i + 1))
    while [ "$i" -lt "$n" ] && [[ "${block[$i]}" != '$ '* ]]; do
      printf '%s\n' "${block[$i]}" >>"$want"
      i=$((i + 1))
    done
    local status=0
    in_sandbox timeout --kill-after=5 "$block_timeout" bash --noprofile --norc -c \
      "source '$sandbox/preamble.sh'; $command" >"$got" 2>&1 </dev/null || status=$?
    trim_trailing_blank "$want"
    trim_trailing_blank "$got"
    count=$((count + 1))
    if ! lines_match "$want" "$got"; then
      local -a detail=("command: $command" "expected (- lines) vs actual (+ lines), exit status $status:")
      mapfile -t -O 2 detail < <(diff -U2 --label expected --label actual "$want" "$got" | tail -n +3 | head -60)
      report_failure "$file:$at (console block at line $line)" "${detail[@]}"
      ok=0
      break
    fi
  done
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1))
    printf 'ok   %s:%s (console, %s commands, output as shown)\n' "$file" "$line" "$count"
  fi
}

# run_block FILE LINE LANG DIRECTIVES: one block, in a sandbox of its own.
run_block() {
  local file=$1 line=$2 lang=$3 directives=$4
  new_sandbox
  local d want_pulse=0
  IFS=';' read -r -a ds <<<"$directives"
  for d in "${ds[@]}"; do
    d=$(sed 's/^ *//; s/ *$//' <<<"$d")
    case "$d" in
      '') ;;
      pulse) want_pulse=1 ;;
      env\ *)
        local kv
        for kv in ${d#env }; do
          if [[ "$kv" != [A-Za-z_]*=* ]]; then
            report_failure "$file:$line" "check-docs directive 'env' takes NAME=VALUE words; found: $kv"
            return
          fi
          echo "$kv" >>"$sandbox/env"
        done
        ;;
      *) report_failure "$file:$line" "unknown check-docs directive '$d' (valid: skip: REASON, pulse, env NAME=VALUE)"; return ;;
    esac
  done
  if [ "$want_pulse" -eq 1 ]; then
    local out
    if ! out=$(start_pulse); then
      report_failure "$file:$line ($lang block at line $line)" "could not start a private pulseaudio:" "$out"
      clean_sandbox
      return
    fi
  fi
  case "$lang" in
    sh) run_sh "$file" "$line" ;;
    console) run_console "$file" "$line" ;;
  esac
  clean_sandbox
}

# --- reading the files ----------------------------------------------------------------------

for file in "${files[@]}"; do
  if [ ! -f "$file" ]; then
    report_failure "$file" "no such file"
    continue
  fi
  lineno=0
  in_fence=0
  previous=''
  while IFS= read -r text || [ -n "$text" ]; do
    lineno=$((lineno + 1))
    if [ "$in_fence" -eq 0 ]; then
      if [[ "$text" =~ ^(\ *)\`\`\`(.*)$ ]]; then
        indent=${#BASH_REMATCH[1]}
        info=$(sed 's/^ *//; s/ *$//' <<<"${BASH_REMATCH[2]}")
        lang=${info%% *}
        fence_line=$lineno
        directives=''
        if [[ "$previous" =~ ^\ *\<\!--\ *check-docs:(.*)--\>\ *$ ]]; then
          directives=${BASH_REMATCH[1]}
        fi
        block=()
        in_fence=1
      else
        [ -n "$text" ] && previous=$text
        [ -z "$text" ] && previous=''
      fi
      continue
    fi
    if ! [[ "$text" =~ ^\ *\`\`\` ]]; then
      # A fence inside a list is indented; so are its lines.
      if [[ "$text" =~ ^(\ *)(.*)$ ]] && [ "${#BASH_REMATCH[1]}" -le "$indent" ]; then
        text=${BASH_REMATCH[2]}
      else
        text=${text:$indent}
      fi
      block+=("$text")
      continue
    fi
    # The end of a block.
    in_fence=0
    previous=''
    if [ -z "$lang" ]; then
      report_failure "$file:$fence_line" \
        "a fence without a language: mark it sh (run), console (run and compare) or text/yaml/json/… (not a command)"
      continue
    fi
    case "$lang" in
      sh | bash | shell) kind=sh ;;
      console) kind=console ;;
      *) continue ;;
    esac
    if [[ "$directives" =~ (^|;)\ *skip(.*)$ ]]; then
      reason=$(sed 's/^[: ]*//; s/ *$//' <<<"${BASH_REMATCH[2]}")
      if [ -z "$reason" ]; then
        report_failure "$file:$fence_line" "'check-docs: skip' needs a reason: <!-- check-docs: skip: REASON -->"
        continue
      fi
      skipped=$((skipped + 1))
      skip_reasons+=("$file:$fence_line: $reason")
      printf 'skip %s:%s (%s): %s\n' "$file" "$fence_line" "$kind" "$reason"
      continue
    fi
    run_block "$file" "$fence_line" "$kind" "$directives"
  done <"$file"
  if [ "$in_fence" -eq 1 ]; then
    report_failure "$file:$fence_line" "the fence opened here is never closed"
  fi
done

echo
echo "Blocks checked: $((passed + failed)), skipped: $skipped"
for r in "${skip_reasons[@]}"; do echo "  skipped $r"; done
for f in "${failures[@]}"; do echo "  failed  $f"; done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
