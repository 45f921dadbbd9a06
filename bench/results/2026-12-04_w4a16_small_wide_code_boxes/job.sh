#!/usr/bin/env bash
# Session 41: the W4A16 small TMA tactic with 128-byte code box rows (4 K steps a box row, 128-byte
# swizzle, the warp's rows read in a bank-conflict-free order) instead of 32-byte ones (one K step).
# ncu at T = 1 (../2026-12-04_w4a16_decode_timelines/ncu.sh): the 32-byte form reads 2.2-2.6 TB/s.
# .carry/new.txz (xz: a third of gzip's size): megamoe + megamoe_gpu_tests with the change; .carry/base.txz: megamoe of c499b6a.
# 1. W4A16 / fp4 GPU tests; memcheck / racecheck / synccheck on the GEMM tactics test and the gpt-oss shape
#    conformance cases; `megamoe run` (CPU reference check) at preset shapes, T = 1 (`auto`: split_small_k1 on deepseek-v3 and gpt-oss-120b, 8 K steps a
#    stage; gpt-oss-120b's K/2 = 1440 ends inside a box);
# 2. A/B: forced split_small_k1 and `auto` (mxfp4, nvfp4) at T = 1..64, four presets, best of two.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new /tmp/base && tar xJf .carry/new.txz -C /tmp/new && tar xJf .carry/base.txz -C /tmp/base || exit 1
timeout 150 /tmp/new/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -12
for t in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='W4A16.GemmTacticsMatchCpu:*fp4*shape_gpt_oss*:*fp4*every_tactic*' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in gpt-oss-120b deepseek-v3 qwen3-30b-a3b mixtral-8x7b; do
    timeout 60 /tmp/new/megamoe run --recipe $r --preset $p --tokens 1 --iters 2 > "$R/run_${r}_$p.log" 2>&1
    echo "run $r $p rc=$? $(grep -iE 'rel|pass|fail' "$R/run_${r}_$p.log" | tail -1 | cut -c1-150)"
  done
done
mkdir -p "$R/ab"
scripts/ab_bench.sh "$R/ab" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 500 \
  "k1mx=--recipe w4a16_mxfp4 --tactic split_small_k1 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,2,4,8,16,32,64 --iters 50" \
  "automx=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,2,4,8,16,32,64 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,4,16,64 --iters 50" 2>&1 | tail -n 45
echo "end $(( $(date +%s) - t0 ))s"
