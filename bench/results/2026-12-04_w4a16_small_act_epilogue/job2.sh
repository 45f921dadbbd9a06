#!/usr/bin/env bash
# Session 42, second job: job.sh's A/B put the new binary with the epilogue off (a0) 1.3% behind
# head in every cell. Was it the plain path's 4-D / 3-D tensor maps (the first build used them for
# every GEMM) or the order of the variants? v3d keeps the 3-D / 2-D maps for the plain path (only
# the gated epilogue's GEMM uses the "half" dimension). Variants, alternated, best of two:
#   head  = megamoe of 318f4bb;  n4 = the first build (4-D maps everywhere), epilogue off;
#   v0 / v1 = v3d with MEGAMOE_W4A16_SMALL_ACT=0 / 1;  headB = head again, last (the order effect).
# .carry/head.txz (318f4bb megamoe), .carry/n4.txz (job.sh's megamoe), .carry/v3d.txz (megamoe +
# megamoe_gpu_tests of the working tree). First the W4A16 tests and memcheck / racecheck with v3d.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/v3d /tmp/head /tmp/n4 && tar xJf .carry/v3d.txz -C /tmp/v3d && tar xJf .carry/head.txz -C /tmp/head \
  && tar xJf .carry/n4.txz -C /tmp/n4 || exit 1
timeout 120 /tmp/v3d/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/v3d/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='SmallTactic/W4A16ActEpilogue*:*fp4*every_tactic*:W4A16.GemmTacticsMatchCpu' > "$R/san_memcheck.log" 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY' "$R/san_memcheck.log" | tail -1)"
for t in racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 /tmp/v3d/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='SmallTactic/W4A16ActEpilogue*:W4A16.GemmTacticsMatchCpu' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
mkdir -p "$R/ab"
AB_VARIANTS="head=/tmp/head/megamoe n4=/tmp/n4/megamoe@MEGAMOE_W4A16_SMALL_ACT=0 v0=/tmp/v3d/megamoe@MEGAMOE_W4A16_SMALL_ACT=0 v1=/tmp/v3d/megamoe@MEGAMOE_W4A16_SMALL_ACT=1 headB=/tmp/head/megamoe" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 400 \
  "automx=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-64 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,4,16,64 --iters 50" 2>&1 | grep -E "^==|geomean|ALL|deadline"
echo "end $(( $(date +%s) - t0 ))s"
