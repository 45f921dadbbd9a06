#!/usr/bin/env bash
# Session 59: WidePaired with one 128-row TMA box for the token tile and one per weight block, and one
# weight-scale box per block (branch wip/fp8-tma-big-boxes: 6 TMA copies a step instead of 11), against
# main: runs 10 and 11 ruled out the L2, the stage depth and the promotion's turnaround; the producer
# lane's cost showed in run 2 (its spills: 3.4% at deepseek-v3 T = 8192), so the copies' issue rate is next.
# Carry [".carry"]: bld.txz = the branch (/work/carry-stash/big_boxes_v1.txz), main.txz = main f5ce56f.
# 1. fp8 GEMM tests + every fp8 backend's conformance cases; 2. memcheck / racecheck on the small fp8
# GEMM tests; 3. A/B main / big, forced split_tma_act T = 2048 / 8192 and split_tma T = 8192.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/main.txz -C /tmp/b0
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
gpu_sanitizers 'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.DynamicOrderRunsEveryTileOnce' 100 \
  memcheck racecheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/b0/megamoe big=$B/megamoe" RUN_TIMEOUT=150 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-330}" \
  "act=$S --tactic split_tma_act --tokens 2048,8192" "tma=$S --tactic split_tma --tokens 8192" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
