#!/usr/bin/env bash
# 2026-12-03 (session 33). The small-T timelines (../2026-12-03_small_T_timelines/) put fp8_block's
# gap to vLLM at qwen3-30b-a3b T = 128 in our TMA kernel's streaming: FC1 131 us against 108, FC2
# 81 against 58 (3.1 / 2.5 TB/s against 3.8 / 3.5). At these sizes one consumer warpgroup works
# (a tile holds <= 64 tokens) while each stage reserves a 128-row token tile: 6 stages, 96 KiB of
# weights in flight; vLLM's Triton kernel runs several CTAs per SM with 3 stages each. Diagnosis
# build MEGAMOE_FP8_TMA_ONE_WG (one_wg_macro.patch): one consumer warpgroup, 64-token passes,
# 8 stages of 24 KiB (128 KiB of weights in flight), every fp8 TMA kernel (split_tma and
# split_tma_act). Binaries built on the CPU machine: base = .carry/bins.tgz (the tree without
# the macro), new = .carry/ow.tgz (the two fp8 TMA translation units compiled with the macro and
# relinked). fp8 GPU tests and the three sanitizers on the new binary, then forced split_tma /
# split_tma_act at T = 128..2048, alternated, best of two.
# Run from the repository root: bash bench/results/2026-12-03_fp8_tma_one_wg/job.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/bins.tgz -C /tmp/base && tar xzf .carry/ow.tgz -C /tmp/new || exit 1
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.PitchedRowsSmall'
export MEGAMOE_TACTIC_CACHE=off
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,256,512,1024,2048 --iters 50"
scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 330 "split_tma=$C --tactic split_tma" \
  "split_tma_act=$C --tactic split_tma_act"
python3 scripts/ab_compare.py "$R" base new
echo "end $(( $(date +%s) - t0 ))s"
