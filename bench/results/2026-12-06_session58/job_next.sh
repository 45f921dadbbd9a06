#!/usr/bin/env bash
# Prepared in session 58 for the next session's first call (not run). Carry [".carry"]: bld.txz =
# /work/carry-stash/early_draw_v2.txz (branch wip/fp8-tma-early-draw: main's kernels with the new
# knob off by default, the tile-count test, and the fp8 split heuristic sending more than 64 rows per
# expert to split_tma_act instead of CUTLASS's large tile: only GPUs without table entries run it, and
# Fp8Block.Bf16YEqualsFp32YBitwise, run here, checks both paths).
#  - an H200: session 56's job_tune_h200.sh (bf16 / fp8_block T = 2048..8192, W4A16 4096 / 8192:
#    the H200's entries predate our fp8 TMA kernel's paired blocks and dynamic order; ~565 s), then
#    merge with scripts/merge_tune.py --min-gain 0.02 and run the `auto` A/B and the DeepGEMM
#    comparison (issue 14) in the next call;
#  - otherwise: the early ticket draw A/B below (~150 s).
set -u
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ "${SKIP_TUNE:-0}" = 0 ]; then
  exec bash bench/results/2026-12-06_session56/job_tune_h200.sh
fi
source scripts/device_env.sh
carried_job_start
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
MEGAMOE_FP8_TMA_EARLY_DRAW=1 MEGAMOE_FP8_TMA_DYNAMIC=2 timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" \
  > "$R/tests_early.log" 2>&1
echo "tests early=1 dynamic=2 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_early.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
AB_END=${AB_END:-330} knob_ab MEGAMOE_FP8_TMA_EARLY_DRAW "late=0 early=1 early2=1@MEGAMOE_FP8_TMA_DYNAMIC=2" 150 \
  "act=$S --tactic split_tma_act --tokens 2048,8192" \
  "tma=$S --tactic split_tma --tokens 2048,8192" \
  "small=$S --tactic split_tma_small_act --tokens 512,2048"
echo "ab end $(el)s"
MEGAMOE_FP8_TMA_EARLY_DRAW=1 MEGAMOE_FP8_TMA_DYNAMIC=2 gpu_sanitizers \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.DynamicOrderRunsEveryTileOnce' 150 memcheck racecheck synccheck
echo "end $(el)s"
