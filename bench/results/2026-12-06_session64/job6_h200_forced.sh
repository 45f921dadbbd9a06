#!/usr/bin/env bash
# Session 64, on the H200 right after job5 (same carry): forced split_large_tma and split_large_tma_fc1,
# wide ring (MEGAMOE_BF16_LARGE_TMA_NARROW=0) against the rule, at 32 / 64 rows an expert.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
AB_END=80 knob_ab MEGAMOE_BF16_LARGE_TMA_NARROW "wide=0 rule=-1" 40 \
  "tma=--recipe bf16 --presets deepseek-v3,gpt-oss-120b,qwen3-30b-a3b --tokens 1024,2048 --iters 50 --tactic split_large_tma" \
  "fc1=--recipe bf16 --presets deepseek-v3,gpt-oss-120b,qwen3-30b-a3b --tokens 512,1024,2048 --iters 50 --tactic split_large_tma_fc1"
echo "end $(el)s"
