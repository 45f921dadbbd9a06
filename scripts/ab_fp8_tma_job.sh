#!/usr/bin/env bash
# The standard A/B job for a change to the fp8_block TMA kernel (grouped_gemm_fp8_tma.cuh), on the GPU
# machine, through scripts/ab_job.sh: the working tree (with PATCH applied) against PATCH reversed;
# the fp8 GPU tests, racecheck / memcheck / synccheck on the two small fp8 GEMM tests, then forced
# `split_tma` and `split_tma_act` on the four presets at T = 128, 2048, 8192, alternated, best of
# two, new runs stopped after DEADLINE seconds (default 520). Run from the repository root after
# `git apply PATCH`.
#
#   scripts/ab_fp8_tma_job.sh PATCH [DEADLINE]
set -u
if [ $# -lt 1 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
source "$(dirname "$0")/device_env.sh"
presets=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
bench="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $presets --tokens 128,2048,8192 --iters 50"
"$(dirname "$0")/ab_job.sh" "$1" 2 "${2:-520}" 'Fp8*:*fp8*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' \
  "split_tma=$bench --tactic split_tma" "split_tma_act=$bench --tactic split_tma_act"
