#!/usr/bin/env bash
# Session 67: where main's W4A16 GEMMs lose time in the cells furthest from issue 15's targets.
# 1. Is the small tactic at gpt-oss-120b T = 1 (28% of the packed floor on the H200) bound by its CTA
#    count (FC1 180 CTAs, FC2 92 on 132 SMs) or by each CTA's own stream? Kernel timelines (ktrace) with
#    K whole (split_small_k1: the early weight requests, FC1's activation epilogue), the same without the
#    early requests, and K in two parts (split_small_k2: 360 / 184 CTAs, partial sums added into a
#    zeroed fp32 D, the activation kernel): the GEMMs' durations.
# 2. Per-SASS-instruction stall samples (ncu SourceCounters) of the small tactic's two GEMMs there, and
#    of the TMA tactic's FC2 at mixtral-8x7b T = 8192 (1.18x our bf16), so that the next decode change
#    follows a measured profile.
# Carry [".carry"]: .carry/bld_main.txz = main a395644. ~200 s.
set -u
CARRY_BLD=${CARRY_BLD:-bld_main.txz}
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
G="--recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1"
ktrace_bench k1 -- $G --tactic split_small_k1
MEGAMOE_W4A16_SMALL_EARLY=0 ktrace_bench k1_noearly -- $G --tactic split_small_k1
ktrace_bench k2 -- $G --tactic split_small_k2
SEC="--section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy"
M="gpu__time_duration.sum,dram__bytes_read.sum,sm__inst_executed.sum"
scripts/ncu_kernels.sh "$R/small_gptoss_t1" w4a16_small 2 120 "$SEC" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset gpt-oss-120b --tokens 1 --iters 2 --no-check
echo "small rc=$? $(el)s"
[ "$(left 300)" -gt 60 ] && scripts/ncu_kernels.sh "$R/tma_mixtral_8192" w4a16_large_tma_kernel 2 "$(left 300)" "$SEC" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset mixtral-8x7b --tokens 8192 --iters 2 --no-check
echo "tma rc=$? $(el)s"
for f in "$R"/*_source.csv.gz; do [ -f "$f" ] && python3 scripts/ncu_sass_stalls.py --top 25 "$f" > "${f%.csv.gz}_top.txt" 2>&1; done
echo "end $(el)s"
