#!/usr/bin/env bash
# Session 38, the committed tree: the W4A16 / fp4 GPU tests after the operand alignment check
# (launch_grouped_gemm_w4a16 refuses A, W or scales off a 16-byte boundary; W4A16.RefusesBadOutputs)
# and the cp.async fallback for unaligned scales removed. Carry .carry/fin.tgz (megamoe_gpu_tests).
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/fin && tar xzf .carry/fin.tgz -C /tmp/fin || exit 1
timeout 150 /tmp/fin/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -12
