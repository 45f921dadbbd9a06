#!/usr/bin/env bash
# Prepared in session 41 (no device time left), not yet run. The W4A16 small TMA tactic copies a token
# box of BT = 16 (or 32) rows per K step whatever the pass holds; at decode a pass holds 1-8 rows, so half
# or more of a stage's token box rows (64 of a 16-token stage's 128 rows of 128 B at 8 K steps, against
# the codes' 256) are rows the MMAs skip. x8_boxes.patch (on 318f4bb) gives the kernel a second token
# map with 8-row boxes and uses it for passes of <= 8 rows (the NTA = 1 path): the stage then carries
# 8 KB of tokens instead of 16 (a step's tile [8 rows x 128 B], steps 1 KB apart). Knob:
# MEGAMOE_W4A16_SMALL_X8=0 keeps the 16-row boxes (same binary). SASS: the NTA = 1 stage loop +24
# instructions (the runtime token stride; a shipped form without the knob makes it a constant).
# Binaries (built on the CPU machine; rebuild with `git apply x8_boxes.patch` + ninja if missing):
#   .carry/x8.txz    megamoe + megamoe_gpu_tests of 318f4bb + the patch
#   .carry/head.txz  megamoe of 318f4bb
# Carry [".carry"] with only these two (xz tarballs: tar xJf).
# 1. W4A16 / fp4 GPU tests with each knob; memcheck / racecheck / synccheck (knob 1) on the GEMM tactics
#    test (experts of 0-9 rows: narrow and wide passes), the shape conformance cases and every-tactic;
# 2. A/B head / x8 knob 0 / x8 knob 1, forced split_small_k1 and `auto` (mxfp4, nvfp4), T = 1..64, best of two.
# Ship only beyond the spread of knob 0 against head (the same kernel but for the stride select).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/x8 /tmp/head && tar xJf .carry/x8.txz -C /tmp/x8 && tar xJf .carry/head.txz -C /tmp/head || exit 1
for k in 1 0; do
  MEGAMOE_W4A16_SMALL_X8=$k timeout 100 /tmp/x8/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*' > "$R/tests_k$k.log" 2>&1
  echo "tests knob $k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_k$k.log" | head -6
done
for t in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 /tmp/x8/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='W4A16.GemmTacticsMatchCpu:*fp4*shape_*:*fp4*every_tactic*' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
mkdir -p "$R/ab"
AB_VARIANTS="head=/tmp/head/megamoe k0=/tmp/x8/megamoe@MEGAMOE_W4A16_SMALL_X8=0 k1=/tmp/x8/megamoe@MEGAMOE_W4A16_SMALL_X8=1" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 470 \
  "k1mx=--recipe w4a16_mxfp4 --tactic split_small_k1 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-64 --iters 50" \
  "automx=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-64 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,4,16,64 --iters 50" 2>&1 | grep -E "^==|geomean|ALL"
echo "end $(( $(date +%s) - t0 ))s"
