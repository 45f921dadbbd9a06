#!/usr/bin/env bash
# 2026-12-03 (session 34), after job3.sh: job3's timelines put split_tma_act's FC1 at qwen3-30b-a3b T = 128
# at 160.6 us against split_tma's FC1 115.6 + activation kernel 6.8 (same TMA kernel, same K loop: 141
# against 158 SASS instructions a step). ncu (clocks not locked, caches flushed) of the first fp8_tma
# kernel (FC1) of each tactic, forced, at that cell: what the fused kernel does differently.
# Binary: .carry/base.tgz (HEAD aac9303).
# Run from the repository root: bash bench/results/2026-12-03_fp8_small_T_token_box/job4.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base && tar xzf .carry/base.tgz -C /tmp/base || exit 1
export MEGAMOE_TACTIC_CACHE=off
S="--clock-control none --cache-control all --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum"
for t in split_tma split_tma_act; do
  timeout 120 ncu $S -k regex:fp8_tma -c 1 -o $R/fc1_$t /tmp/base/megamoe bench --recipe fp8_block \
    --backend sm90_fp8_fp8_bf16_split --tactic $t --presets qwen3-30b-a3b --tokens 128 --iters 50 > $R/ncu_$t.log 2>&1
  echo "ncu $t rc=$? $(( $(date +%s) - t0 ))s"
  ncu --import $R/fc1_$t.ncu-rep --page details > $R/fc1_${t}_details.txt 2>&1
  grep -E "Duration|DRAM Through|dram__bytes|lts__t_sector_hit|Memory Through|Registers|Achieved Occ|Stall|Warp Cycles|Issued|Grid Size|Block Size|Dynamic Shared" $R/fc1_${t}_details.txt | head -40
done
echo "end $(( $(date +%s) - t0 ))s"
