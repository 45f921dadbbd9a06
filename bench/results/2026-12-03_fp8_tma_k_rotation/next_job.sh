#!/usr/bin/env bash
# Ran 2026-12-03 (session 30: run1/, README). Run from the repository root after
#   git apply bench/results/2026-12-03_fp8_tma_k_rotation/k_rotation.patch
# ab_build builds the base with the patch reversed. Correctness (the fp8 GPU tests: the K blocks are
# summed in a rotated order now, so results move in the last bits but must stay within tolerance and
# bitwise repeatable; sanitizers on the small fp8 GEMM tests), then the forced-tactic A/B, best of two.
set -u
source .snap/env.sh
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
# (as run, the build, checks and bench lines were inline; scripts/ab_job.sh runs the same commands)
scripts/ab_job.sh bench/results/2026-12-03_fp8_tma_k_rotation/k_rotation.patch 2 520 'Fp8*:*fp8*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' \
  "split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50" \
  "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50"
