#!/usr/bin/env bash
# Session 70, prepared (not run): what bounds the W4A16 small tactic's GEMMs at gpt-oss-120b T = 1 with
# K whole (`auto`: FC1 180 CTAs, FC2 92; session 69's ncu profiled the K-in-two form) -- instruction
# issue at 8-16 warps an SM, or the wait for a stage? ncu (caches flushed and invalidated: clean L2)
# with SpeedOfLight, Occupancy, WarpStateStats, InstructionStats, SchedulerStats and SourceCounters, for
# the shipped ring and, given .carry/bld.txz = wip/deep-ring, FC2 with MEGAMOE_W4A16_SMALL_DEEP=1.
# Carry [".carry"]. ~150 s.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
SEC="--section SpeedOfLight --section Occupancy --section WarpStateStats --section InstructionStats --section SchedulerStats --section SourceCounters"
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active"
for v in ring deep; do
  [ "$v" = deep ] && export MEGAMOE_W4A16_SMALL_DEEP=1
  scripts/ncu_kernels.sh "$R/gptoss_t1_$v" w4a16_small_tma 2 100 "$SEC" "$M" -- \
    $B/megamoe run --recipe w4a16_mxfp4 --preset gpt-oss-120b --tokens 1 --iters 2 --no-check
  echo "ncu $v rc=$? $(el)s"
  grep -E "Duration|DRAM Throughput|Grid Size|Issue Slots Busy|Issued Ipc Active|No Eligible|Active Warps Per Scheduler|Eligible Warps Per Scheduler|Achieved Occupancy" "$R/gptoss_t1_${v}_details.txt" | head -24
  unset MEGAMOE_W4A16_SMALL_DEEP
done
echo "end $(el)s"
