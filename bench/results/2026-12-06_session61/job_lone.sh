#!/usr/bin/env bash
# Session 61: lone passes in the fp8 WidePaired kernels (grouped_gemm_fp8_tma.cuh consume_tile): a
# tile of <= 64 token rows is multiplied by both consumer warpgroups, warpgroup c weight block c
# (gated: the up block handed to warpgroup 0 through the held last stage), instead of warpgroup 0
# running both blocks alone. Knob MEGAMOE_FP8_TMA_LONE_SPLIT=0 keeps the old form (A/B in one binary).
# Carry [".carry"]: bld.txz = this tree.
# 1. fp8 GPU tests with the knob on and off; 2. memcheck / racecheck / synccheck on the paired
# kernels' tests (lone plain tiles, fp32 and staged bf16 D; lone gated tiles with the exchange);
# 3. A/B off / on: fp8_block `auto` T = 128..16384, four presets, and forced split_tma_act with
# balanced routing at T = 8192 (no lone passes there: the A/B's control).
set -u
source scripts/device_env.sh
carried_job_start
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
MEGAMOE_FP8_TMA_LONE_SPLIT=0 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*:Fp8Block.*' > "$R/tests_off.log" 2>&1
echo "tests off rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_off.log" | head -8
gpu_sanitizers 'Fp8Gemm.BothTacticsMatchFloat64Product:Fp8Gemm.ManyTilesPerCta:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' 110 memcheck racecheck synccheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="off=$B/megamoe@MEGAMOE_FP8_TMA_LONE_SPLIT=0 on=$B/megamoe" RUN_TIMEOUT=200 \
  scripts/ab_bench.sh "$R/ab" x x 3 "$t0" "${AB_END:-560}" \
  "fp8=--recipe fp8_block --presets $P --tokens 128,512,1024,2048,4096,8192,16384 --iters 50" \
  "bal=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets deepseek-v3,gpt-oss-120b --tokens 8192 --routing balanced --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
