#!/usr/bin/env bash
# Session 42: FC1's activation in the W4A16 small TMA tactic's epilogue when it runs K whole (gated
# W13 tiles of 64 gate rows + their 64 up rows by one 4-D TMA box; no fp32 h, no activation kernel).
# Binaries built on the CPU machine (xz: tar xJf):
#   .carry/new.txz   megamoe + megamoe_gpu_tests of the working tree (knob MEGAMOE_W4A16_SMALL_ACT)
#   .carry/head.txz  megamoe of 318f4bb (the shipped kernels and table; aed0e13 is SASS-identical)
# 1. W4A16 / fp4 GPU tests (knob default); the activation-epilogue test with the cp.async form
#    (MEGAMOE_W4A16_SMALL_TMA=0: the refusal path); memcheck on the small act test + every-tactic,
#    racecheck / synccheck on the small act test;
# 2. `megamoe run` against the CPU reference, T = 1 / 4, four presets, both formats;
# 3. A/B head / new knob 0 / new knob 1, `auto` (mxfp4 T = 1..64, nvfp4 T = 1, 4, 16, 64), best of two;
# 4. `megamoe tune` T = 1..64 with the new binary (the fused K-whole form changes k1 against k2).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new /tmp/head && tar xJf .carry/new.txz -C /tmp/new && tar xJf .carry/head.txz -C /tmp/head || exit 1
timeout 120 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
MEGAMOE_W4A16_SMALL_TMA=0 timeout 60 /tmp/new/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*W4A16ActEpilogue*:W4A16.Refuses*' \
  > "$R/tests_cpasync.log" 2>&1
echo "tests cp.async form rc=$? $(grep -E '^\[  PASSED|^\[  FAILED' "$R/tests_cpasync.log" | head -2)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='SmallTactic/W4A16ActEpilogue*:*fp4*every_tactic*' > "$R/san_memcheck.log" 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY' "$R/san_memcheck.log" | tail -1)"
for t in racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='SmallTactic/W4A16ActEpilogue*' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
    for T in 1 4; do
      timeout 60 /tmp/new/megamoe run --recipe $r --preset $p --tokens $T --iters 2 > "$R/run_${r}_${p}_$T.log" 2>&1
      echo "run $r $p T=$T rc=$? $(grep -iE 'rel-L2' "$R/run_${r}_${p}_$T.log" | tail -1 | cut -c1-100)"
    done
  done
done
echo "runs done $(( $(date +%s) - t0 ))s"
mkdir -p "$R/ab"
AB_VARIANTS="head=/tmp/head/megamoe a0=/tmp/new/megamoe@MEGAMOE_W4A16_SMALL_ACT=0 a1=/tmp/new/megamoe@MEGAMOE_W4A16_SMALL_ACT=1" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 420 \
  "automx=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-64 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,4,16,64 --iters 50" 2>&1 | grep -E "^==|geomean|ALL|deadline"
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
    [ $(( $(date +%s) - t0 )) -gt 540 ] && { echo "skip tune $r $p (time)"; continue; }
    MEGAMOE_TACTIC_CACHE=off timeout 60 /tmp/new/megamoe tune --recipe $r --presets $p --tokens 1-64 --iters 20 --rounds 2 \
      --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2> "$R/tune_${r}_$p.err"
    echo "tune $r $p rc=$? $(( $(date +%s) - t0 ))s"
  done
done
echo "end $(( $(date +%s) - t0 ))s"
