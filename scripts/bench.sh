#!/usr/bin/env bash
# The benchmarks as a gate (`make bench`, `make bench-quick`; docs/style.md §3.10): runs
# each bench program of the release build, each of which ends with its table of goals (goal,
# figure, met or NOT met) and stops itself past its time limit; then prints the summary of all
# of them and exits 1 when a goal was not met or a bench did not run to its end.
#
#   scripts/bench.sh           every bench, full rounds (about 8 minutes on 2 cores)
#   scripts/bench.sh --quick   engine-bench, scenario-bench and daemon-bench, fewer rounds
#                              (a few minutes), for use before every change that touches a hot path
#
# BENCH_TIME_LIMIT (seconds) overrides every bench's own limit.
set -uo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  -h | --help)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "bench.sh: unknown argument '$1'; use --quick or nothing" >&2
    exit 2
    ;;
esac

bin=.build/release
for program in engine-bench scenario-bench pulse-bench daemon-bench sessionctl; do
  if [ ! -x "$bin/$program" ]; then
    echo "bench.sh: $bin/$program is missing; run 'make release' first (make bench does)" >&2
    exit 2
  fi
done

summary=$(mktemp /tmp/audiosession-bench-XXXXXX)
trap 'rm -f "$summary"' EXIT
export BENCH_SUMMARY="$summary"
if [ "$quick" = 1 ]; then export BENCH_QUICK=1; else unset BENCH_QUICK; fi

started=$(date +%s)
run() {
  local name=$1
  shift
  echo
  echo "=== $name"
  local begin rc
  begin=$(date +%s)
  "$@"
  rc=$?
  echo "($name: exit $rc after $(($(date +%s) - begin)) s)"
  # A bench that died without its table (a crash, a signal) is a goal not met too.
  if [ "$rc" -ne 0 ] && ! grep -q "^$name	.*	NOT met\$" "$summary"; then
    printf '%s\t%s\t%s\t%s\n' "$name" "runs to its end" "exit status $rc" "NOT met" >>"$summary"
  fi
}

run engine-bench "$bin/engine-bench" policies
run scenario-bench "$bin/scenario-bench" policies examples
if [ "$quick" = 0 ]; then run pulse-bench "$bin/pulse-bench" policies; fi
run daemon-bench "$bin/daemon-bench"

echo
echo "=== summary of $([ "$quick" = 1 ] && echo "make bench-quick" || echo "make bench"), $(($(date +%s) - started)) s"
awk -F'\t' '
  { bench[NR] = $1; goal[NR] = $2; figure[NR] = $3; met[NR] = $4
    if (length($1) > wb) wb = length($1); if (length($2) > wg) wg = length($2)
    if (length($3) > wf) wf = length($3) }
  END {
    printf "%-" wb "s  %-" wg "s  %-" wf "s  %s\n", "bench", "goal", "figure", "result"
    for (i = 1; i <= NR; i++) printf "%-" wb "s  %-" wg "s  %-" wf "s  %s\n", bench[i], goal[i], figure[i], met[i]
  }' "$summary"
total=$(wc -l <"$summary")
missed=$(grep -c '	NOT met$' "$summary")
echo
if [ "$missed" -gt 0 ]; then
  echo "$missed of $total goals NOT met"
  exit 1
fi
echo "all $total goals met"
