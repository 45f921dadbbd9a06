#!/usr/bin/env bash
# Session 35. The activation's sigmoid without an IEEE division (activation_math.cuh: e^-|z|, the
# hardware reciprocal refined by one Newton step) and the fp8 quantizers' x / s through the block's
# reciprocal (formats/scale_division.h: the IEEE quotient's codes): every recipe's activation and
# every fp8 quantizer changed. session 34's diagnosis: the fused fp8 FC1 ran 1.07-1.20x faster with
# no activation math at all.
# 1. the whole GPU suite with the new build; compute-sanitizer on the activation / quantizer tests;
# 2. base (HEAD before the change) against new, alternated, best of two: fp8_block `auto` and forced
#    split_tma_act, bf16 `auto`, fp8_block Mega cells, w4a16 large T.
# Binaries: .carry/base.tgz (60638d4), .carry/new.tgz (the tree), both built on the CPU machine.
# Run from the repository root: bash bench/results/2026-12-04_act_quant_division/job.sh
# (run1: the whole job, its benches with --iters 30, which the CLI refuses; run2: SKIP_TESTS=1, the
# benches with --iters 50.)
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/new.tgz -C /tmp/new || exit 1
if [ "${SKIP_TESTS:-0}" = 0 ]; then
timeout 220 /tmp/new/megamoe_gpu_tests --gtest_brief=1 > "$R/gpu_tests.log" 2>&1
echo "whole GPU suite rc=$? $(( $(date +%s) - t0 ))s"
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests from .* ran" "$R/gpu_tests.log" | head -12
SMALL='SplitKernels.Activation*:Fp8Quant.*Small*:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall'
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$SMALL" > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -3
done
fi
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 560 \
  "fp8auto=--recipe fp8_block --presets $PR --tokens 128,512,2048,8192 --iters 50" \
  "fp8act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,512,2048 --iters 50" \
  "bf16auto=--recipe bf16 --presets $PR --tokens 512,2048,8192 --iters 50" \
  "fp8small=--recipe fp8_block --presets $PR --tokens 1,16,64 --iters 50" \
  "w4=--recipe w4a16_mxfp4 --presets $PR --tokens 2048,8192 --iters 50" | tail -n 80
echo "end $(( $(date +%s) - t0 ))s"
