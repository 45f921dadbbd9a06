#!/usr/bin/env bash
# Prepared in session 41 (no device time left), not yet run. The W4A16 small TMA tactic sizes its ring for
# two CTAs per SM (16-token passes, 8 K steps a stage: 2 stages, 1 in flight). Small decode layers launch
# fewer CTAs than SMs (qwen3-30b-a3b T = 1: FC1 96, FC2 128 with K whole; gpt-oss-120b T = 1: FC2 92), so
# half of each SM's shared memory sits idle while each CTA streams with one stage in flight.
# deep_ring.patch (on 9772a29): when the grid has at most one CTA per SM, 16-token passes run an instance
# sized for one CTA per SM (8 K steps: 4 stages, 3 in flight; 4 K steps: 8 stages). Knob
# MEGAMOE_W4A16_SMALL_DEEP=0: never (same binary). Four more instantiations (2 formats x 2 step counts).
# Binaries (built on the CPU machine; rebuild with git apply + ninja if missing):
#   .carry/deep.txz  megamoe + megamoe_gpu_tests of 9772a29 + the patch
#   .carry/head.txz  megamoe of 318f4bb (the same kernels and table as 9772a29)
# 1. W4A16 / fp4 GPU tests with each knob (GemmTacticsMatchCpu's {0, 1, 7, 2, 5, 9} rows run the deep
#    form with 4 K steps); `megamoe run` against the CPU reference at T = 1 / 2 on the four presets (the
#    8-step deep form: qwen3-30b-a3b); memcheck / racecheck / synccheck;
# 2. A/B head / deep0 / deep1, forced split_small_k1 and `auto` (mxfp4, nvfp4), T = 1..16, best of two.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/deep /tmp/head && tar xJf .carry/deep.txz -C /tmp/deep && tar xJf .carry/head.txz -C /tmp/head || exit 1
for k in 1 0; do
  MEGAMOE_W4A16_SMALL_DEEP=$k timeout 100 /tmp/deep/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*' > "$R/tests_k$k.log" 2>&1
  echo "tests knob $k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_k$k.log" | head -6
done
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in qwen3-30b-a3b gpt-oss-120b deepseek-v3 mixtral-8x7b; do
    for T in 1 2; do
      timeout 60 /tmp/deep/megamoe run --recipe $r --preset $p --tokens $T --iters 2 > "$R/run_${r}_${p}_$T.log" 2>&1
      echo "run $r $p T=$T rc=$? $(grep -iE 'rel-L2' "$R/run_${r}_${p}_$T.log" | tail -1 | cut -c1-110)"
    done
  done
done
for t in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 /tmp/deep/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='W4A16.GemmTacticsMatchCpu:*fp4*shape_*:*fp4*every_tactic*' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
mkdir -p "$R/ab"
AB_VARIANTS="head=/tmp/head/megamoe d0=/tmp/deep/megamoe@MEGAMOE_W4A16_SMALL_DEEP=0 d1=/tmp/deep/megamoe@MEGAMOE_W4A16_SMALL_DEEP=1" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 540 \
  "k1mx=--recipe w4a16_mxfp4 --tactic split_small_k1 --presets qwen3-30b-a3b,gpt-oss-120b,deepseek-v3,mixtral-8x7b --tokens 1-16 --iters 50" \
  "automx=--recipe w4a16_mxfp4 --presets qwen3-30b-a3b,gpt-oss-120b,deepseek-v3,mixtral-8x7b --tokens 1-16 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets qwen3-30b-a3b,gpt-oss-120b,deepseek-v3,mixtral-8x7b --tokens 1,2,4 --iters 50" 2>&1 | grep -E "^==|geomean|ALL"
echo "end $(( $(date +%s) - t0 ))s"
