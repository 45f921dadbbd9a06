#!/usr/bin/env bash
# Session 58, ninth call: ncu of fp8_block deepseek-v3 T = 8192's FC1, ours (split_tma_act on
# WidePaired: 5989 us in run7's timeline) against CUTLASS's large tile (5327 us + the 409 us
# activation kernel), with per-instruction stall samples: where our mainloop's 12% more time goes.
# Carry [".carry"]: main's binary at ccbfd9e (/work/carry-stash/paired_ship2.txz).
set -u
source scripts/device_env.sh
carried_job_start
M="gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"
M="$M,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg"
for v in ${NCU_VARIANTS:-split_tma_act:fp8_tma_kernel split_large_tile:device_kernel}; do
  t=${v%%:*} k=${v#*:}
  [ "$(el)" -gt 420 ] && { echo "skip $t (time)"; continue; }
  scripts/ncu_kernels.sh "$R/nc_$t" "$k" 1 200 \
    "--section SpeedOfLight --section LaunchStats --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis" "$M" -- \
    $B/megamoe run --backend sm90_fp8_fp8_bf16_split --tactic $t --preset deepseek-v3 --recipe fp8_block --tokens 8192 --iters 2 --no-check
  echo "ncu $t rc=$? $(el)s"; tail -3 "$R/nc_$t.log"
done
echo "end $(el)s"
