#!/usr/bin/env bash
# Session 41: the per-GEMM large tactics (split_large_tma_fc1 / _fc2, session 40's prepared patch) and the
# W4A16 table with `split_large_tma_fc1` at qwen3-30b-a3b T = 4096 / 8192 (mxfp4, nvfp4; the tune in
# ../2026-12-04_w4a16_mixed_large_tactics_tune/run1 put it 2.0-3.3% ahead of split_large_tma).
# .carry/new.tgz: megamoe + megamoe_gpu_tests of the working tree (patch + merged table);
# base: the same binary with base_tactics.json as its tactic cache (the tune's entries for qwen3-30b-a3b
# with T = 4096 / 8192 set back to the committed split_large_tma; T = 2048 as committed).
# 1. every-tactic conformance + W4A16 tests, memcheck on the every-tactic cases (the mixed tactics at T = 600);
# 2. A/B `auto`: qwen3-30b-a3b T = 2048..8192 both formats; deepseek-v3 / gpt-oss-120b T = 8192 as controls
#    (their entries are the shipped table's in both variants).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new /tmp/base && tar xzf .carry/new.tgz -C /tmp/new || exit 1
timeout 120 /tmp/new/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*fp4*every_tactic*:*W4A16*:SplitW4A16*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|FAILED" "$R/tests.log" | head -8
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 200 $CS --tool memcheck --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='*fp4*every_tactic*' > "$R/memcheck.log" 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|^\[  PASSED|FAILED" "$R/memcheck.log" | head -4
mkdir -p "$R/ab"
AB_VARIANTS="base=/tmp/new/megamoe@MEGAMOE_TACTIC_CACHE=$ROOT/bench/results/2026-12-04_w4a16_mixed_large_tactics/base_tactics.json new=/tmp/new/megamoe" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 480 \
  "qmx=--recipe w4a16_mxfp4 --presets qwen3-30b-a3b --tokens 2048,4096,8192 --iters 50" \
  "qnv=--recipe w4a16_nvfp4 --presets qwen3-30b-a3b --tokens 2048,4096,8192 --iters 50" \
  "ctl=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b --tokens 8192 --iters 50" 2>&1 | tail -n 20
echo "end $(( $(date +%s) - t0 ))s"
