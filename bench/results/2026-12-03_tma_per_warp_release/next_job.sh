#!/usr/bin/env bash
# Ran 2026-12-03 inside job_three_way.sh (session 30, README). Run from the repository root after
#   git apply bench/results/2026-12-03_tma_per_warp_release/per_warp_release.patch
# ab_build builds the base with the patch reversed. Correctness (fp8 + W4A16 GPU tests, racecheck /
# memcheck / synccheck on the small GEMM tests: the release is now one arrival per warp after a
# __syncwarp, which racecheck may not credit), then the forced tactics A/B, alternated, best of two.
set -u
source scripts/device_env.sh
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
# (written for a two-build job; it ran as part of job_three_way.sh instead)
scripts/ab_job.sh bench/results/2026-12-03_tma_per_warp_release/per_warp_release.patch 2 520 'Fp8*:*fp8*:W4A16*:*mxfp4*:*nvfp4*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:W4A16.GemmTacticsMatchCpu:W4A16.ActivationEpilogue*' \
  "split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50" \
  "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50" \
  "mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $PR --tokens 2048,8192 --iters 50"
