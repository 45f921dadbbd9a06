#!/usr/bin/env bash
# Session 35. The single-block route plan (T*K <= 1024) with its (expert, warp) counts in one
# expert-major array scanned once (no per-expert walk over the warps, no second scan), and ids read
# without a 64-bit division when they are contiguous. The kernel took 8.3-10.3 us at T*K = 1024
# (qwen3-30b-a3b T = 128) in earlier timelines.
# 1. the whole GPU suite; racecheck / memcheck / synccheck on the route plan and split-kernel tests;
# 2. kernel timelines (ktrace) of the route plan, base and new, T = 1, 16, 128 (fp8_block split);
# 3. base against new end to end, alternated, best of two: split cells T = 1..128 (fp8_block, bf16,
#    w4a16_mxfp4 forced to their split backends) and `auto` fp8_block T = 128..512.
# Binaries: .carry/base.tgz (83ec228), .carry/rp.tgz (the tree), both built on the CPU machine.
# Run from the repository root: bash bench/results/2026-12-04_route_plan_one_scan/job.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/rp.tgz -C /tmp/new || exit 1
timeout 200 /tmp/new/megamoe_gpu_tests --gtest_brief=1 > "$R/gpu_tests.log" 2>&1
echo "whole GPU suite rc=$? $(( $(date +%s) - t0 ))s"
grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests from .* ran" "$R/gpu_tests.log" | head -12
SMALL='RoutePlan.*:SplitKernels.PermuteGathersRows:SplitKernels.CombineMatchesHostBitwise'
for tool in racecheck memcheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$SMALL" > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -3
done
CUDA=/usr/local/cuda
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -L$CUDA/lib64 -lcupti
export MEGAMOE_TACTIC_CACHE=off
for v in base new; do for t in 1 16 128; do
  CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/kt_${v}_T$t.csv LD_LIBRARY_PATH=$CUDA/lib64:${LD_LIBRARY_PATH:-} \
    timeout 40 /tmp/$v/megamoe bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets qwen3-30b-a3b \
    --tokens $t --iters 50 > "$R/kt_${v}_T$t.log" 2>&1
  echo "== $v T=$t"; python3 scripts/ktrace/timeline.py $R/kt_${v}_T$t.csv | grep -E "route_plan|span"
done; done
gzip -f $R/*.csv
unset MEGAMOE_TACTIC_CACHE
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 540 \
  "fp8split=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $PR --tokens 1,4,16,64,128 --iters 50" \
  "bf16split=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --presets $PR --tokens 1,16,128 --iters 50" \
  "w4split=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --presets $PR --tokens 1,4,16,64 --iters 50" \
  "fp8auto=--recipe fp8_block --presets $PR --tokens 128,256,512 --iters 50" | tail -n 80
echo "end $(( $(date +%s) - t0 ))s"
