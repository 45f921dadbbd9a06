#!/usr/bin/env bash
# Session 36. `split_tma_small` (the fp8 TMA kernel with one consumer warpgroup) runs one CTA per SM
# with 8 stages and streams FC1 at 3.67 TB/s at qwen3-30b-a3b T = 128 where vLLM's kernels, 2-3 small
# CTAs per SM, reach 3.87 (../2026-12-04_small_T_timelines_2893855/); neither a second TMA warp nor one
# 128-row weight box helped (../2026-12-04_fp8_tma_two_issuers_wbox128/). two_ctas_macro.patch:
# MEGAMOE_FP8_TMA_SMALL_CTAS=2 gives that geometry 2 CTAs per SM (4 stages each, consumers at 216
# registers by setmaxnreg, launch bounds (256, 2): ptxas 128 registers, no spills; grid 2 x SMs).
# 1. fp8 GPU tests on the variant; racecheck / memcheck / synccheck on Fp8Gemm.BothTacticsMatchFloat64Product;
# 2. A/B base (2893855) against cta2, alternated, best of two: forced split_tma_small T = 128..1024,
#    `auto` T = 128..1024.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/cta2.tgz -C /tmp/new || exit 1
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' 'Fp8Gemm.BothTacticsMatchFloat64Product'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
RUN_TIMEOUT=60 scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 400 \
  "small=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_small --presets $PR --tokens 128,256,512,1024 --iters 50" \
  "auto=--recipe fp8_block --presets $PR --tokens 128,256,512,1024 --iters 50" | tee "$R/ab_compare.txt" | tail -n 45
echo "end $(( $(date +%s) - t0 ))s"
