#!/usr/bin/env bash
# The working tree with
# the scales loaded by TMA, the whole GPU test binary, `megamoe tune --recipe fp8_block` at
# T = 1024..8192 (merge into src/core/tactics_default.cpp with
# `python3 scripts/merge_tune.py <r>/tune_fp8.json --buckets 1024-8192`).
# Session 32: the shipped form (scales_by_tma_aligned.patch, committed); tune at T = 1024..8192 only
# and no peer run (the device time left allowed no more).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
MEGAMOE_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" scripts/device_build.sh "$BN" megamoe_cli megamoe_gpu_tests \
  > "$R/build.log" 2>&1 || { tail -n 30 "$R/build.log" "$BN.build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
timeout 200 "$BN/megamoe_gpu_tests" --gtest_brief=1 > "$R/gpu_tests.log" 2>&1
echo "GPU tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" "$R/gpu_tests.log" | head -8
timeout 150 "$BN/megamoe" tune --recipe fp8_block --tokens 1024,2048,4096,8192 --iters 30 \
  --cache "$R/tune_fp8.json" > "$R/tune_fp8.txt" 2> "$R/tune_fp8.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat "$R/tune_fp8.txt"
