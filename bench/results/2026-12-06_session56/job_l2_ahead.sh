#!/usr/bin/env bash
# Session 56: our bf16 large-T GEMM (`split_large_tma`) asking L2 for the weight box l2_ahead K steps
# ahead of its TMA load (MEGAMOE_BF16_LARGE_TMA_L2_AHEAD, branch wip/bf16-large-l2-ahead; 0 = off =
# main). Why: ncu of the kernel at T = 8192 (run3_ncu_w4, H100) has its consumer warps ~40% of their
# samples waiting on the stages' full barriers; at ~256 rows an expert the weights are an HBM stream
# (each 128-row block read by one pass), and the 4 stages hold 64 KB of them per SM.
# Check: the bf16 large-T GEMM tests with the knob; then the A/B, forced tactic, T = 4096 / 8192 (and
# 16384 at qwen3-30b-a3b), until ~560 s. Carry [".carry"].
set -u
source scripts/device_env.sh
carried_job_start
MEGAMOE_BF16_LARGE_TMA_L2_AHEAD=8 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Bf16LargeTma*' > "$R/tests_l2.log" 2>&1
echo "tests l2=8 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_l2.log" | head -6
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=${AB_END:-560} knob_ab MEGAMOE_BF16_LARGE_TMA_L2_AHEAD "off=0 a4=4 a8=8" 150 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 4096,8192 --iters 50"
echo "end $(el)s"
