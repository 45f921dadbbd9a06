#!/usr/bin/env bash
# Session 36, after job.sh: the shipped form (Geometry<1> = two CTAs per SM of 4 stages, no macro;
# the working tree of the commit after 9bce745, built on the CPU machine as .carry/final.tgz).
# 1. fp8 GPU tests; racecheck / memcheck on Fp8Gemm.BothTacticsMatchFloat64Product;
# 2. `megamoe tune --recipe fp8_block --tokens 128,256,512,1024` (all four presets; merged on the CPU
#    machine only where it moves a bucket);
# 3. A/B base (2893855) against final, `auto` T = 128..1024, alternated, best of two.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/final.tgz -C /tmp/new || exit 1
timeout 120 /tmp/new/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8*:*fp8*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head
for tool in racecheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Fp8Gemm.BothTacticsMatchFloat64Product' > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$R/san_$tool.log" | head -2
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
RUN_TIMEOUT=60 scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 240 \
  "auto=--recipe fp8_block --presets $PR --tokens 128,256,512,1024 --iters 50" | tee "$R/ab_compare.txt" | tail -n 22
MEGAMOE_TACTIC_CACHE=off timeout 150 /tmp/new/megamoe tune --recipe fp8_block --tokens 128,256,512,1024 --iters 30 \
  --cache "$R/tune_fp8_small.json" > "$R/tune_fp8_small.txt" 2> "$R/tune_fp8_small.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -n 30 "$R/tune_fp8_small.txt"
echo "end $(( $(date +%s) - t0 ))s"
