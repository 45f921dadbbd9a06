#!/usr/bin/env bash
# Session 68, call 2: why the balanced form (session 67's patch; call 1: correct, but 0.876x geomean)
# is slower, and where main's small tactic loses time at gpt-oss-120b T = 1. Carry [".carry"]:
# .carry/bld.txz = a build of the balanced form (session 67's patch, or small_balanced_v2.patch beside
# this script; with MEGAMOE_W4A16_SMALL_BALANCED unset it runs main's kernels). Not run (no machine).
# Session 67's job3 (timelines k1 / no early / k2, ncu of the small GEMMs, of the TMA FC2 at
# mixtral-8x7b T = 8192) plus ncu of the balanced kernel at the same cell.
set -u
CARRY_BLD=bld.txz
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
G="--recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1"
ktrace_bench k1 -- $G --tactic split_small_k1
MEGAMOE_W4A16_SMALL_EARLY=0 ktrace_bench k1_noearly -- $G --tactic split_small_k1
ktrace_bench k2 -- $G --tactic split_small_k2
SEC="--section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis"
M="gpu__time_duration.sum,dram__bytes_read.sum,sm__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
scripts/ncu_kernels.sh "$R/small_gptoss_t1" w4a16_small_tma 2 120 "$SEC" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset gpt-oss-120b --tokens 1 --iters 2 --no-check
echo "small rc=$? $(el)s"
MEGAMOE_W4A16_SMALL_BALANCED=1 scripts/ncu_kernels.sh "$R/balanced_gptoss_t1" balanced 2 120 "$SEC" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset gpt-oss-120b --tokens 1 --iters 2 --no-check
echo "balanced rc=$? $(el)s"
[ "$(left 420)" -gt 60 ] && scripts/ncu_kernels.sh "$R/tma_mixtral_8192" w4a16_large_tma_kernel 2 "$(left 420)" "$SEC" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset mixtral-8x7b --tokens 8192 --iters 2 --no-check
echo "tma rc=$? $(el)s"
for f in "$R"/*_source.csv.gz; do [ -f "$f" ] && python3 scripts/ncu_sass_stalls.py --top 25 "$f" > "${f%.csv.gz}_top.txt" 2>&1; done
echo "end $(el)s"
