#!/usr/bin/env bash
# One whole A/B job on the GPU machine (docs/BENCHMARKS.md: base and new built in one job, alternated):
# scripts/ab_build.sh (the working tree with the change = new, PATCH reversed = base; the new tree
# also builds megamoe_gpu_tests), scripts/ab_checks.sh (the new tree's GPU tests matching FILTER and
# the three sanitizers on SMALL), then scripts/ab_bench.sh (REPS alternated runs of each CONFIG,
# stopping new runs after DEADLINE seconds) with MEGAMOE_TACTIC_CACHE=off. Run from the repository
# root after `source scripts/device_env.sh` (R: the output folder, BN: the new build folder).
#
#   scripts/ab_job.sh PATCH REPS DEADLINE FILTER SMALL CONFIG=ARGS [CONFIG=ARGS ...]
set -uo pipefail
if [ $# -lt 6 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
: "${R:?source scripts/device_env.sh first}" "${BN:?source scripts/device_env.sh first}"
patch_file=$1 reps=$2 deadline=$3 filter=$4 small=$5; shift 5
root=$(cd "$(dirname "$0")/.." && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt" 2>&1
t0=$(date +%s)
if ! MEGAMOE_AB_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" JOBS=${JOBS:-$(nproc)} \
  "$root/scripts/ab_build.sh" "$patch_file" "$BN" /tmp/build-base megamoe_gpu_tests > "$R/ab_build.log" 2>&1; then
  tail -n 30 "$R/ab_build.log" "$BN.build.log"
  exit 1
fi
echo "builds $(( $(date +%s) - t0 ))s"
"$root/scripts/ab_checks.sh" "$R" "$BN/megamoe_gpu_tests" "$t0" "$filter" "$small"
MEGAMOE_TACTIC_CACHE=off "$root/scripts/ab_bench.sh" "$R" /tmp/build-base/megamoe "$BN/megamoe" "$reps" "$t0" "$deadline" "$@"
echo "end $(( $(date +%s) - t0 ))s"
