#!/usr/bin/env bash
# Prepared in session 35 (no device time left), not yet run. The W4A16 small kernel at deepseek-v3
# T = 1 (split_small_k1, FC1 as 256 CTAs, two per SM) waits on memory latency (ncu: DRAM 39%, 0.54
# issued instructions and 3.4 active warps per scheduler; bench/results/2026-12-04_fp8_tune_large_T/
# run1/ncu_w4small_dsv3_T1.txt) with 3 x 8 KB of weights in flight per CTA. small_stages8.patch:
# MEGAMOE_W4A16_SMALL_STAGES=8 runs 16-token passes with 8 stages (7 x 8 KB in flight, 100 KB of
# shared memory: two CTAs per SM, what these grids get anyway); default 4 as shipped.
# 1. the W4A16 GEMM tests with the knob on; racecheck / memcheck on W4A16.GemmTacticsMatchCpu;
# 2. knob off / on (one binary; the "s8" wrapper sets it), forced split_small_k1 and split_small_k2,
#    T = 1, 2, 4, 8, 16, four presets, alternated, best of two.
# Binaries (build first, on the CPU machine, from an up-to-date build dir):
#   git apply bench/results/2026-12-04_w4a16_small_stages8_prepared/small_stages8.patch
#   scripts/local_variant.sh /tmp/var s8 "-DMEGAMOE_DIAG_UNUSED" src/kernels/sm90/gemm/grouped_gemm_w4a16_small.cu
#   git checkout src && tar czf .carry/s8.tgz -C /tmp/var/s8 megamoe megamoe_gpu_tests
# Run from the repository root with carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/s8 /tmp/w && tar xzf .carry/s8.tgz -C /tmp/s8 || exit 1
printf '#!/bin/sh\nMEGAMOE_W4A16_SMALL_STAGES=8 exec /tmp/s8/megamoe "$@"\n' > /tmp/w/megamoe && chmod +x /tmp/w/megamoe
MEGAMOE_W4A16_SMALL_STAGES=8 scripts/ab_checks.sh "$R" /tmp/s8/megamoe_gpu_tests "$t0" 'W4A16.*' 'W4A16.GemmTacticsMatchCpu'
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_bench.sh "$R" /tmp/s8/megamoe /tmp/w/megamoe 2 "$t0" 400 \
  "k1=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small_k1 --presets $PR --tokens 1,2,4,8,16 --iters 50" \
  "k2=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small_k2 --presets $PR --tokens 1,2,4,8,16 --iters 50" | tail -n 48
echo "end $(( $(date +%s) - t0 ))s"
