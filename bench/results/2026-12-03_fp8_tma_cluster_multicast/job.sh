#!/usr/bin/env bash
# A/B of the fp8 TMA kernel in clusters of two CTAs with the token boxes multicast (2026-12-03,
# session 30). Run from the repository root with the change in the working tree (new);
# ab_build.sh builds the base with cluster_multicast.patch reversed. Correctness (every fp8 GPU
# test; racecheck / memcheck / synccheck on the small fp8 GEMM tests), then the forced-tactic A/B,
# base and new alternated, best of two.
set -u
source .snap/env.sh
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
# (as run, the build, checks and bench lines were inline; scripts/ab_job.sh runs the same commands)
scripts/ab_job.sh bench/results/2026-12-03_fp8_tma_cluster_multicast/cluster_multicast.patch 2 370 'Fp8*:*fp8*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' \
  "split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50" \
  "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50"
