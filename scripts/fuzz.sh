#!/bin/sh
# Coverage-guided fuzzing with libFuzzer (docs/fuzzing.md): builds Fuzz/Driver with
# -sanitize=fuzzer,address in its own build folder (.build/fuzz), then runs each target for
# FUZZ_SECONDS seconds (default 600), from the seeds in Fuzz/corpus/<target>/ and what earlier
# runs found (.build/fuzz/corpus/<target>/). Every crash, timeout or memory blow-up is copied into
# Fuzz/regressions/<target>/, which the test suite replays (FuzzRegressionTests). Ends with one
# line per target (seconds, executions, executions per second, coverage, crashes) and exits 1
# when a target found one.
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

summary=$scratch/summary.txt
: > "$summary"
failed=0
for target in "$@"; do
  work=$scratch/corpus/$target
  artifacts=$scratch/artifacts/$target
  log=$scratch/$target.log
  mkdir -p "$work" "$artifacts"
  echo "=== $target: $seconds s"
  # A crash stops the run; the next target runs all the same.
  FUZZ_TARGET=$target "$program" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "Fuzz/corpus/$target" \
    > "$log" 2>&1 || true
  tail -n 12 "$log"
  found=0
  for artifact in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* \
    "$artifacts"/leak-*; do
    [ -e "$artifact" ] || continue
    mkdir -p "Fuzz/regressions/$target"
    cp "$artifact" "Fuzz/regressions/$target/"
    rm "$artifact"
    found=$((found + 1))
  done
  [ "$found" -eq 0 ] || failed=1
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
  # Without counters in the library modules libFuzzer says so: the run measured nothing.
  if grep -q 'no interesting inputs were found' "$log"; then
    echo "error: $target ran without coverage counters (see $log)" >&2
    failed=1
  fi
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
  printf '%-16s %5s s  %10s execs  %7s exec/s  %-22s  %d crash(es)\n' "$target" \
    "${time:-?}" "${execs:-?}" "${speed:-?}" "${coverage:-?}" "$found" >> "$summary"
done
echo
echo "target            time       executions     speed   coverage                crashes"
cat "$summary"
if [ "$failed" -ne 0 ]; then
  echo "Crashes were kept in Fuzz/regressions/: fix them; the tests replay them." >&2
  exit 1
fi
