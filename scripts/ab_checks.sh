#!/usr/bin/env bash
# The correctness half of an A/B job (docs/BENCHMARKS.md): the GPU tests matching FILTER from
# TEST_BIN (bounded by 150 s), then compute-sanitizer's racecheck, memcheck and synccheck on the
# tests matching SMALL (100 s each). Logs: OUT/tests.log and OUT/san_<tool>.log; prints each
# step's exit status (seconds counted from T0, the job's start) and the summaries.
#
#   scripts/ab_checks.sh OUT TEST_BIN T0 FILTER SMALL
set -uo pipefail
if [ $# -ne 5 ]; then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
out=$1 bin=$2 t0=$3 filter=$4 small=$5
timeout 150 "$bin" --gtest_brief=1 --gtest_filter="$filter" > "$out/tests.log" 2>&1
echo "tests ($filter) rc=$? $(( $(date +%s) - t0 ))s"
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$out/tests.log" | head -12
for tool in racecheck memcheck synccheck; do
  timeout 100 compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin" --gtest_brief=1 --gtest_filter="$small" \
    > "$out/san_$tool.log" 2>&1
  echo "$tool rc=$?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$out/san_$tool.log" | head -3
done
