#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/fuzzing.md): builds Fuzz/Driver with
# -sanitize=fuzzer,address in its own build folder (.build/fuzz), then runs each target for
# FUZZ_SECONDS seconds (default 600), from the seeds in Fuzz/corpus/<target>/ and what earlier
# runs found (.build/fuzz/corpus/<target>/). Every crash, timeout or memory blow-up is copied into
# Fuzz/regressions/<target>/, which the test suite replays (FuzzRegressionTests). Ends with one
# line per target (seconds, executions, executions per second, coverage, crashes) and exits 1
# when a target found one.
#
# FUZZ_JOBS (default 1) targets run at once, each on a core of its own.
#
# usage: scripts/fuzz.sh [TARGET...]   (default: every folder of Fuzz/corpus)
set -eu
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-600}
scratch=.build/fuzz
# --sanitize=fuzzer links libFuzzer, but (swift 6.3.1) leaves the library modules without
# coverage counters: they are asked for by hand, as -sanitize=fuzzer would.
swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path "$scratch" \
  --product audiosession-fuzz -Xswiftc -DFUZZING \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
program=$scratch/release/audiosession-fuzz

if [ $# -eq 0 ]; then
  set -- $(ls Fuzz/corpus)
fi
for target in "$@"; do
  if [ ! -d "Fuzz/corpus/$target" ]; then
    echo "error: no target '$target' (Fuzz/corpus has: $(ls Fuzz/corpus | tr '\n' ' '))" >&2
    exit 2
  fi
done

jobs=${FUZZ_JOBS:-1}
case "$jobs" in
  '' | *[!0-9]* | 0)
    echo "error: FUZZ_JOBS must be a whole number of at least 1, not '$jobs'" >&2
    exit 2
    ;;
esac
summary=$scratch/summary.txt
rows=$scratch/summary
rm -rf "$rows"
mkdir -p "$rows"

# One target: its run, its crashes copied into Fuzz/regressions/, its row of the summary.
fuzz_target() {
  local target=$1
  local work=$scratch/corpus/$target
  local artifacts=$scratch/artifacts/$target
  local log=$scratch/$target.log
  mkdir -p "$work" "$artifacts"
  echo "=== $target: $seconds s"
  # A crash stops the run; the next target runs all the same.
  FUZZ_TARGET=$target "$program" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "Fuzz/corpus/$target" \
    > "$log" 2>&1 || true
  [ "$jobs" -gt 1 ] || tail -n 12 "$log"
  local found=0 bad=0
  for artifact in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* \
    "$artifacts"/leak-*; do
    [ -e "$artifact" ] || continue
    mkdir -p "Fuzz/regressions/$target"
    cp "$artifact" "Fuzz/regressions/$target/"
    rm "$artifact"
    found=$((found + 1))
  done
  [ "$found" -eq 0 ] || bad=1
  local execs speed coverage time
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
  # Without counters in the library modules libFuzzer says so: the run measured nothing.
  if grep -q 'no interesting inputs were found' "$log"; then
    echo "error: $target ran without coverage counters (see $log)" >&2
    bad=1
  fi
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
  printf '%-16s %5s s  %10s execs  %7s exec/s  %-22s  %d crash(es)\n' "$target" \
    "${time:-?}" "${execs:-?}" "${speed:-?}" "${coverage:-?}" "$found" > "$rows/$target"
  [ "$bad" -eq 0 ] || touch "$rows/$target.failed"
}

for target in "$@"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_target "$target" &
done
wait
failed=0
: > "$summary"
for target in "$@"; do
  cat "$rows/$target" >> "$summary"
  [ ! -e "$rows/$target.failed" ] || failed=1
done
echo
echo "target            time       executions     speed   coverage                crashes"
cat "$summary"
if [ "$failed" -ne 0 ]; then
  echo "Crashes were kept in Fuzz/regressions/: fix them; the tests replay them." >&2
  exit 1
fi
