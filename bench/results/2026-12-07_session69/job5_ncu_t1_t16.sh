#!/usr/bin/env bash
# Session 69: the W4A16 small tactic's GEMMs at deepseek-v3 T = 1 (one wave of FC1 CTAs, 68% of the
# packed floor) against T = 16 (~12 waves, 98.5%): ncu speed of light, memory workload, occupancy and
# launch statistics of FC1 and FC2 in each. Carry [".carry"]: .carry/bld_main.txz = main a395644. ~100 s.
set -u
CARRY_BLD=${CARRY_BLD:-bld_main.txz}
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats"
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for t in 1 16; do
  scripts/ncu_kernels.sh "$R/ds_t$t" w4a16_small_tma 2 90 "$SEC" "$M" -- \
    $B/megamoe run --recipe w4a16_mxfp4 --preset deepseek-v3 --tokens $t --iters 2 --no-check
  echo "ncu T=$t rc=$? $(el)s"
  grep -E "Duration|DRAM Throughput|Grid Size|Waves Per SM|L2 Hit Rate|Mem Busy|Max Bandwidth|Achieved Occupancy" "$R/ds_t${t}_details.txt" | head -24
done
echo "end $(el)s"
