#!/usr/bin/env bash
# Session 35, at 7908d98 (the fused FC1 1.04x faster after the division-free activation and
# quantizer): `megamoe tune --recipe fp8_block` at T = 1024..8192 (merged afterwards on the CPU
# machine with scripts/merge_tune.py --buckets 1024-8192); before it, ncu of the W4A16 small kernel
# at deepseek-v3 T = 1 (FC1, the first launch: SOL, warp states, issue) for issue 15.
# Binaries: .carry/head.tgz (7908d98). Run from the repository root.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head && tar xzf .carry/head.tgz -C /tmp/head || exit 1
timeout 60 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
  -k regex:w4a16_small -c 1 /tmp/head/megamoe bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split \
  --presets deepseek-v3 --tokens 1 --iters 50 > "$R/ncu_w4small_dsv3_T1.txt" 2>&1
echo "ncu rc=$? $(( $(date +%s) - t0 ))s"
grep -E "Duration|DRAM Throughput|Memory Throughput|Issue Slots|Issued Warp|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Compute \(SM\)" "$R/ncu_w4small_dsv3_T1.txt" | head -20
MEGAMOE_TACTIC_CACHE=off timeout 400 /tmp/head/megamoe tune --recipe fp8_block --tokens 1024,2048,4096,8192 --iters 30 \
  --cache "$R/tune_fp8_large.json" > "$R/tune_fp8_large.txt" 2> "$R/tune_fp8_large.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -n 40 "$R/tune_fp8_large.txt"
echo "end $(( $(date +%s) - t0 ))s"
