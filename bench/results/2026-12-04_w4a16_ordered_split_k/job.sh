#!/usr/bin/env bash
# Session 35. The W4A16 small tactic's K split in three or four parts added in a fixed order
# (split_small_k3 / k4; grouped_gemm_w4a16_small.cu: per tile and pass a turn counter): at
# deepseek-v3 T = 1 the shipped split_small_k1 runs FC1 as 256 CTAs (two per SM; ncu: 3.4 active
# warps and 0.54 issued instructions per scheduler, DRAM 39%), k2 as 512 (1.29 waves of 396).
# 1. the W4A16 GEMM tests (incl. W4A16.SmallTacticSplitsAddInOrder), every W4A16 backend's
#    every_tactic conformance case, the tactic tests; racecheck and memcheck on the new test;
# 2. `megamoe tune --recipe w4a16_mxfp4` at T = 1..8 (every tactic timed in one job).
# Binaries: .carry/w4.tgz (the tree, built on the CPU machine). Run from the repository root.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/w4 && tar xzf .carry/w4.tgz -C /tmp/w4 || exit 1
timeout 120 /tmp/w4/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*every_tactic*:Tactic*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests from .* ran" "$R/tests.log" | head -12
for tool in racecheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/w4/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='W4A16.SmallTacticSplitsAddInOrder' > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -3
done
MEGAMOE_TACTIC_CACHE=off timeout 130 /tmp/w4/megamoe tune --recipe w4a16_mxfp4 --tokens 1,2,4,8 --iters 30 \
  --cache "$R/tune_w4_mxfp4.json" > "$R/tune_w4_mxfp4.txt" 2> "$R/tune_w4_mxfp4.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat "$R/tune_w4_mxfp4.txt"
echo "end $(( $(date +%s) - t0 ))s"
