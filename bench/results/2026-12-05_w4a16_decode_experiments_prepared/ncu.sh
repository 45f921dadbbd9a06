#!/usr/bin/env bash
# Prepared in session 43 (not run). The stall profile of session 42's prepared job
# (../2026-12-05_w4a16_small_stalls_prepared/job.sh) for the shipped small kernels AND the two
# experiments, one binary (.carry/dx.txz = /work/carry-stash/decode_experiments.txz, b2d19f8; its
# 128-row kernels are 5fca86b's = e90518b's SASS): per FC1 / FC2 kernel at T = 1 (`auto`:
# split_small_k1, FC1 with the activation epilogue), duration, DRAM throughput, occupancy and the
# warp stall reasons, plus per-SASS-instruction stall samples (source page):
#   base  knobs off (what ships)
#   r64   MEGAMOE_W4A16_SMALL_R64=2 (64-row CTAs everywhere: at gpt-oss-120b T = 1 the rule's choice too)
#   r64s  MEGAMOE_W4A16_SMALL_R64=3 (the rule, and FC2 in two K parts where it fits one wave)
#   tm    MEGAMOE_W4A16_TILE_MAJOR=1 (the codes by one bulk copy a stage)
# on gpt-oss-120b (grids of 180 / 92 CTAs) and deepseek-v3 (256 / 448). ~260 s of device time.
# Reading: base's top stall says what bounds it (long_scoreboard / barrier waits on the full barrier =
# the load path; wait / short_scoreboard / math = the warps' own chains); r64 / tm's durations say
# whether more warps or fewer TMA box rows move it.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/r64 && tar xJf .carry/dx.txz -C /tmp/r64 || exit 1
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
SEC="--section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy --section SpeedOfLight"
for v in base:MEGAMOE_W4A16_SMALL_R64=0 r64:MEGAMOE_W4A16_SMALL_R64=2 r64s:MEGAMOE_W4A16_SMALL_R64=3 tm:MEGAMOE_W4A16_TILE_MAJOR=1; do
  name=${v%%:*} knob=${v#*:}
  for p in gpt-oss-120b deepseek-v3; do
    [ $(( $(date +%s) - t0 )) -gt 500 ] && { echo "skip $name $p (time)"; continue; }
    env $knob scripts/ncu_kernels.sh "$R/st_${name}_$p" w4a16_small 2 120 "$SEC" "$M" -- \
      /tmp/r64/megamoe bench --recipe w4a16_mxfp4 --presets $p --tokens 1 --iters 50
    echo "ncu $name $p rc=$? $(( $(date +%s) - t0 ))s"
  done
done
echo "end $(( $(date +%s) - t0 ))s"
