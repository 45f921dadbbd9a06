#!/usr/bin/env bash
# Session 37: the route plan prefetches the first MEGAMOE_L2_PREFETCH_MB MiB of FC1's weights into the
# L2 (cp.async.bulk.prefetch.L2, issued before the plan's PDL wait) when the routes average >= 4 an
# expert, so that HBM streams them while the plan and the permute run. One binary (HEAD + the change,
# built on the CPU machine, stripped; .carry/l2.tgz: megamoe, megamoe_gpu_tests), carry [".carry"].
# 1. the whole GPU suite (the prefetch is on by default: every backend test runs with it), then
# 2. A/B by the knob: 0 (base) against 32 and 48 MiB, `auto`, bf16 and fp8_block T = 128..2048, and
#    w4a16_mxfp4 T = 128..1024, four presets, alternated, best of two;
# 3. racecheck / memcheck on the route plan's and the fp8 prefetch tests.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new /tmp/w && tar xzf .carry/l2.tgz -C /tmp/new || exit 1
timeout 240 /tmp/new/megamoe_gpu_tests --gtest_brief=1 > "$R/gpu_suite.log" 2>&1
echo "suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/gpu_suite.log" | head -20
for mb in 0 32 48; do
  printf '#!/bin/sh\nMEGAMOE_L2_PREFETCH_MB=%s exec /tmp/new/megamoe "$@"\n' $mb > /tmp/w/mb$mb; chmod +x /tmp/w/mb$mb
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="mb0=/tmp/w/mb0 mb32=/tmp/w/mb32 mb48=/tmp/w/mb48" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 400 \
  "bf16=--recipe bf16 --presets $PR --tokens 128,256,512,1024,2048 --iters 50" \
  "fp8=--recipe fp8_block --presets $PR --tokens 128,256,512,1024,2048 --iters 50" \
  "w4=--recipe w4a16_mxfp4 --presets $PR --tokens 128,256,512,1024 --iters 50" > "$R/ab/ab_compare.txt" 2>&1
grep -E "^mb|== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
for tool in racecheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='RoutePlan.BadL2PrefetchThrows:Fp8Block.L2PrefetchEqualsNoneBitwise' > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -3
done
echo "end $(( $(date +%s) - t0 ))s"
