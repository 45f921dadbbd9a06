#!/usr/bin/env bash
# Session 41, after the 128-byte code boxes (5fd2877): is the rule "eight K steps a stage only where a K
# part holds >= 32 steps" (16-token passes) still right now that a 4-step stage is one 16 KB codes box?
# MEGAMOE_W4A16_SMALL_TMA=1 (the rule), 2 (four always), 3 (eight wherever a K part holds >= 8 steps).
# .carry/k3.txz: megamoe + megamoe_gpu_tests of 318f4bb + the knob. Carry [".carry"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/k3
mkdir -p $B && tar xJf .carry/k3.txz -C $B || exit 1
MEGAMOE_W4A16_SMALL_TMA=3 timeout 40 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*every_tactic*:*fp4*shape_*' > "$R/tests_k3.log" 2>&1
echo "tests k3 rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|FAILED" "$R/tests_k3.log" | head -6
mkdir -p "$R/ab"
AB_VARIANTS="k1=$B/megamoe@MEGAMOE_W4A16_SMALL_TMA=1 k3=$B/megamoe@MEGAMOE_W4A16_SMALL_TMA=3 k2=$B/megamoe@MEGAMOE_W4A16_SMALL_TMA=2" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 150 \
  "k1mx=--recipe w4a16_mxfp4 --tactic split_small_k1 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,2,4,8 --iters 50" \
  "automx=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,2,4,8,16 --iters 50" 2>&1 | grep -E "^==|geomean|ALL|speed-up"
echo "end $(( $(date +%s) - t0 ))s"
