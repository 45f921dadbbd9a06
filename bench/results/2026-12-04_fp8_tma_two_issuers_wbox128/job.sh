#!/usr/bin/env bash
# Session 36. The small-T fp8 TMA kernel (`split_tma_small`, one consumer warpgroup) streams FC1 at
# 3.67 TB/s at qwen3-30b-a3b T = 128 where vLLM's kernel reaches 3.87 (ktrace at 2893855,
# ../2026-12-04_small_T_timelines_2893855/), and the 2026-12-03 stream micro-benchmarks capped one
# TMA-issuing thread per SM at 3.2-3.5 TB/s (two 64-row boxes a step: 3.0-3.2; one 128-row box
# 3.6-3.9; two issuers 3.7-4.2). The same two changes were measured on `split_tma` / `split_tma_act`
# before `split_tma_small` existed (1.001 / 1.011x). issuers_wbox_macros.patch: MEGAMOE_FP8_TMA_ISSUERS=2
# (two TMA warps, alternate steps), MEGAMOE_FP8_TMA_WBOX128=1 (plain tiles' weights as one 128-row
# box). Variants: base (2893855), i2, w128, i2w128 (scripts/local_variant.sh of grouped_gemm_fp8_tma.cu
# and grouped_gemm_fp8_tma_act.cu).
# 1. fp8 GPU tests on i2w128; racecheck / memcheck / synccheck on Fp8Gemm.BothTacticsMatchFloat64Product;
# 2. A/B of the four, alternated, best of two: forced split_tma_small T = 128..1024, forced split_tma
#    T = 128..2048, `auto` T = 128..2048.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
for v in base i2 w128 i2w128; do mkdir -p /tmp/$v && tar xzf .carry/$v.tgz -C /tmp/$v || exit 1; done
scripts/ab_checks.sh "$R" /tmp/i2w128/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' 'Fp8Gemm.BothTacticsMatchFloat64Product'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split"
AB_VARIANTS="base=/tmp/base/megamoe i2=/tmp/i2/megamoe w128=/tmp/w128/megamoe i2w128=/tmp/i2w128/megamoe" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R" x x 2 "$t0" 520 \
  "small=$S --tactic split_tma_small --presets $PR --tokens 128,256,512,1024 --iters 50" \
  "tma=$S --tactic split_tma --presets $PR --tokens 128,512,2048 --iters 50" \
  "auto=--recipe fp8_block --presets $PR --tokens 128,256,512,1024,2048 --iters 50" | tee "$R/ab_compare.txt" | grep -E "^==|geomean|ALL|qwen3" 
echo "end $(( $(date +%s) - t0 ))s"
