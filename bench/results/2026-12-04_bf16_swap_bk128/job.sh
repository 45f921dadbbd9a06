#!/usr/bin/env bash
# Session 36. The bf16 swap-AB CUTLASS tiles (128 weight rows x 32 / 64 tokens, FC1 with the
# activation epilogue and plain) load 64 K a stage: 128 bytes of each weight row. vLLM's tuned
# configs at qwen3-30b-a3b / mixtral-8x7b T = 128 load 128 K (BK = 128, 256 bytes a row) and stream
# 4-7% closer to the HBM floor. swap_bk_macro.patch makes the K tile a macro (MEGAMOE_SWAP_BK,
# default 64); the variant is built with 128 (StageCountAutoCarveout picks the stages).
# 1. bf16 GEMM / split / Mega / conformance GPU tests on the variant; racecheck / memcheck /
#    synccheck on the small-shape GEMM test;
# 2. A/B base (HEAD) against bk128: bf16 `auto` T = 16..1024 and forced split_swap_ab T = 128..1024,
#    four presets, alternated, best of two.
# Binaries: .carry/base.tgz (HEAD), .carry/bk128.tgz (scripts/local_variant.sh of the four swapab TUs).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/bk128.tgz -C /tmp/new || exit 1
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'GroupedGemm*:SplitBf16*:GemmBf16Act*:MegaBf16*:*bf16_bf16_bf16*' \
  'GroupedGemm.SmallShapesRandomRowsWithEmptyGroups'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
RUN_TIMEOUT=90 scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 480 \
  "swap=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_swap_ab --presets $PR --tokens 128,256,512,1024 --iters 50" \
  "auto=--recipe bf16 --presets $PR --tokens 16,32,64,128,256,512,1024 --iters 50" | tail -n 60
echo "end $(( $(date +%s) - t0 ))s"
