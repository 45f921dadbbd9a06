#!/usr/bin/env bash
# Session 49, one call for everything the branch changes (when the device time left allows only
# one): the whole GPU suite, the sanitizers on the four staged sanitizer cases, and a short A/B of
# each staged epilogue against its knob-off form (same binary), T = 2048 / 8192, two rounds.
# Carry [".carry"] (.carry/bld.txz = megamoe + megamoe_gpu_tests; since session 51 main's, where the
# staged forms are the defaults and the knobs turn them off); ~350-540 s.
#  bf16:  main (MEGAMOE_BF16_LARGE_TMA_STORES=1) / staged / early (staged + EARLY_DRAW=1), forced
#         split_large_tma, four presets;
#  fp8:   direct (MEGAMOE_FP8_TMA_STAGED=0) / staged, forced split_tma_act, four presets;
#  w4a16: direct (MEGAMOE_W4A16_LARGE_TMA_STAGED=0) / staged, forced split_large_tma mxfp4.
set -u
source scripts/device_env.sh
carried_job_start
AB_END=${AB_END:-500}  # the A/B phases stop starting runs by then (s since the start): bf16 - 130, fp8 - 60
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
# Session 51: the tensor-core subnormal probe (bench/mma_subnormal_probe.cu, < 1 s) when carried.
if [ -x .carry/mma_subnormal_probe ]; then
  timeout 30 .carry/mma_subnormal_probe > "$R/mma_subnormal.txt" 2>&1; cat "$R/mma_subnormal.txt"
fi
if [ -z "${AB_ONLY:-}" ]; then
sharded_gpu_tests tests 240
MEGAMOE_FP8_TMA_STAGED=0 timeout 60 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*' \
  > "$R/tests_fp8_direct.log" 2>&1
echo "fp8 direct rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_fp8_direct.log" | head -4
S='Bf16LargeTma.SmallProblemForSanitizers:GemmBf16Act.LargeTmaStagedForSanitizers:Fp8Gemm.ManyTilesPerCta:W4A16.LargeTmaStagedForSanitizers'
gpu_sanitizers "$S" 80 memcheck racecheck synccheck
fi  # AB_ONLY
mkdir -p "$R/ab_bf16" "$R/ab_fp8" "$R/ab_w4"
AB_VARIANTS="main=$B/megamoe@MEGAMOE_BF16_LARGE_TMA_STORES=1 staged=$B/megamoe early=$B/megamoe@MEGAMOE_BF16_LARGE_TMA_EARLY_DRAW=1" \
  RUN_TIMEOUT=90 scripts/ab_bench.sh "$R/ab_bf16" x x 2 "$t0" $(( AB_END - 130 )) \
  "uniform=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50" \
  > "$R/ab_bf16.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab_bf16.txt"; echo "ab bf16 $(el)s"
S8=$B/megamoe@MEGAMOE_FP8_TMA_STAGED
AB_VARIANTS="direct=$S8=0 staged=$S8=1" RUN_TIMEOUT=90 scripts/ab_bench.sh "$R/ab_fp8" x x 2 "$t0" $(( AB_END - 60 )) \
  "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $P --tokens 2048,8192 --iters 50" \
  > "$R/ab_fp8.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab_fp8.txt"; echo "ab fp8 $(el)s"
S4=$B/megamoe@MEGAMOE_W4A16_LARGE_TMA_STAGED
AB_VARIANTS="direct=$S4=0 staged=$S4=1" RUN_TIMEOUT=90 scripts/ab_bench.sh "$R/ab_w4" x x 2 "$t0" "$AB_END" \
  "forced_mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50" \
  > "$R/ab_w4.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab_w4.txt"
echo "end $(el)s"
