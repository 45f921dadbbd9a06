#!/usr/bin/env bash
# 2026-12-03 (session 31). The fp8 TMA kernel with its scales loaded by TMA (one 1-D box of 128
# token scales and two 16-byte weight-scale boxes a step, issued by the scale warp's lane 0) instead
# of 130 cp.async of 4 bytes, against the kernel without it (scales_by_tma.patch reversed): the 101
# fp8 GPU tests, racecheck / memcheck / synccheck on the two small fp8 GEMM tests, then
# `megamoe bench --tactic split_tma|split_tma_act` on the four presets at T = 128, 2048, 8192,
# base and new alternated, best of two. Run from the repository root:
#   git apply bench/results/2026-12-03_fp8_tma_scales_by_tma/scales_by_tma.patch
#   bash bench/results/2026-12-03_fp8_tma_scales_by_tma/job.sh
set -u
source .snap/env.sh
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_job.sh bench/results/2026-12-03_fp8_tma_scales_by_tma/scales_by_tma.patch 2 520 'Fp8*:*fp8*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' \
  "split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50" \
  "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50"
