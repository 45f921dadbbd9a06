#!/usr/bin/env bash
# Prepared in session 41 (no device time left), not yet run. At decode the W4A16 split backend runs FC1
# and FC2 with one K-split choice (`split_small` the rule, `_k1` K whole, `_k2` two halves), while the two
# GEMMs launch different grids (gpt-oss-120b T = 1: FC1 180 CTAs, FC2 92 on 132 SMs; ncu session 41: FC2
# read 1.38 TB/s). ksplit_per_gemm.patch (on 41dae2d) adds `split_small_k1_k2` (FC1 whole, FC2 in two) and
# `split_small_k2_k1` (the reverse); no new kernel (each GEMM's split was already a launch argument).
# Binary: .carry/kpg.txz (megamoe + megamoe_gpu_tests of 41dae2d + the patch; rebuild with git apply +
# ninja if missing). Carry [".carry"].
# 1. every-tactic conformance (it runs every registered tactic, the two new ones included) and the W4A16
#    backend tests; memcheck on every-tactic;
# 2. `megamoe tune` mxfp4 / nvfp4, four presets, T = 1..64: the tune prints every tactic's time. Merge
#    (scripts/merge_tune.py --buckets 1-64) only buckets a new tactic wins by more than 2%, then A/B `auto`.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/kpg
mkdir -p $B && tar xJf .carry/kpg.txz -C $B || exit 1
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*fp4*every_tactic*:*W4A16*:SplitW4A16*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='*fp4*every_tactic*' > "$R/memcheck.log" 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 ))s $(grep 'ERROR SUMMARY' "$R/memcheck.log" | tail -1)"
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
    [ $(( $(date +%s) - t0 )) -gt 420 ] && { echo "skip $r $p (time)"; continue; }
    MEGAMOE_TACTIC_CACHE=off timeout 90 $B/megamoe tune --recipe $r --presets $p --tokens 1-64 --iters 20 --rounds 2 \
      --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2> "$R/tune_${r}_$p.err"
    echo "tune $r $p rc=$? $(( $(date +%s) - t0 ))s"; grep -v "^$" "$R/tune_${r}_$p.txt" | tail -n 8 | cut -c1-120
  done
done
echo "end $(( $(date +%s) - t0 ))s"
