#!/usr/bin/env bash
# Prepared in session 41 (not run): ../2026-12-04_w4a16_decode_timelines/ncu.sh again: ncu (clocks not locked, caches flushed) of the W4A16 small TMA kernel at
# T = 1 (FC1 and FC2: -c 2), deepseek-v3 and gpt-oss-120b as `auto` runs them (split_small_k1): what a
# warp waits for, how busy DRAM is. .carry/head.txz: megamoe of 318f4bb (the 128-byte code boxes; xz: tar xJf). Where the small GEMMs stand after 5fd2877, before choosing between the prepared x8 / K-split jobs and a tile-major code layout.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new && tar xJf .carry/head.txz -C /tmp/new || exit 1
S="--clock-control none --cache-control all --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section SchedulerStats --metrics dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum"
for p in deepseek-v3 gpt-oss-120b; do
  timeout 120 ncu $S -k regex:w4a16_small -c 2 -o $R/small_$p /tmp/new/megamoe bench --recipe w4a16_mxfp4 \
    --presets $p --tokens 1 --iters 50 > $R/ncu_$p.log 2>&1
  echo "ncu $p rc=$? $(( $(date +%s) - t0 ))s"
  ncu --import $R/small_$p.ncu-rep --page details > $R/small_${p}_details.txt 2>&1
  grep -E "Duration|DRAM Through|dram__|Memory Through|Registers|Achieved Occ|Stall|Warp Cycles|Issued|Eligible|Active Warps|Grid Size|No Eligible" $R/small_${p}_details.txt | head -60
done
echo "end $(( $(date +%s) - t0 ))s"
