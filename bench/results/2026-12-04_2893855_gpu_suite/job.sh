#!/usr/bin/env bash
# Session 36: the whole GPU test binary at 2893855 (HEAD: session 35's review moved quantize_fp8.cuh
# onto formats::scale_quotient after the last whole-suite run), then memcheck on the quantizer tests.
# Binary: .carry/base.tgz (megamoe_gpu_tests of 2893855 built on the CPU machine).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base && tar xzf .carry/base.tgz -C /tmp/base || exit 1
timeout 300 /tmp/base/megamoe_gpu_tests --gtest_brief=1 > "$R/gpu_suite.log" 2>&1
echo "suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests ran" "$R/gpu_suite.log" | head -20
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/base/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='Fp8Quant*:SplitKernels*' > "$R/san_memcheck_quant.log" 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/san_memcheck_quant.log" | head -3
