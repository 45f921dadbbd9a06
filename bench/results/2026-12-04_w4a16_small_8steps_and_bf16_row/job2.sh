#!/usr/bin/env bash
# Session 39, second W4A16 job: job.sh's 8-step form (k3) lost qwen3-30b-a3b T = 1 / 2 (0.97-0.99x; its
# FC2 has K = 768: 12 steps, under two stages of 8) and won elsewhere (deepseek-v3, mixtral-8x7b,
# gpt-oss-120b T = 1: 1.01-1.04x). k4 = 8 steps only where each K part holds >= 32 steps.
# w4a16_small_8steps_rule.patch on 8e2b341; .carry/w8r.tgz (megamoe, megamoe_gpu_tests). Carry [".carry"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/w8r
mkdir -p $B && tar xzf .carry/w8r.tgz -C $B || exit 1
MEGAMOE_W4A16_SMALL_TMA=4 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*' > "$R/tests_k4.log" 2>&1
echo "W4A16 tests k4 rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_k4.log" | head -6
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
M=$B/megamoe@MEGAMOE_W4A16_SMALL_TMA
mkdir -p "$R/ab"
AB_VARIANTS="k1=$M=1 k3=$M=3 k4=$M=4" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 300 \
  "forced_mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small --presets $PR --tokens 1,2,4,8,16 --iters 50" \
  "auto_mx=--recipe w4a16_mxfp4 --presets $PR --tokens 1,2,4,8,16 --iters 50" \
  "auto_nv=--recipe w4a16_nvfp4 --presets $PR --tokens 1,2,4,8,16 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline|qwen3" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
