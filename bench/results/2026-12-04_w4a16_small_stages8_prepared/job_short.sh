#!/usr/bin/env bash
# Session 35 (refused: too little device time left to start a machine; not run). The short form of job_prepared.sh (W4A16.* tests with
# the knob, then knob off / on with forced split_small_k1 at T = 1, 2, 4, 8). Binaries: .carry/s8.tgz.
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/s8 /tmp/w && tar xzf .carry/s8.tgz -C /tmp/s8 || exit 1
printf '#!/bin/sh\nMEGAMOE_W4A16_SMALL_STAGES=8 exec /tmp/s8/megamoe "$@"\n' > /tmp/w/megamoe && chmod +x /tmp/w/megamoe
MEGAMOE_W4A16_SMALL_STAGES=8 timeout 30 /tmp/s8/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*' > $R/tests.log 2>&1; echo "tests rc=$?"; grep -E "PASSED|FAILED" $R/tests.log | head -5
export MEGAMOE_TACTIC_CACHE=off
scripts/ab_bench.sh "$R" /tmp/s8/megamoe /tmp/w/megamoe 2 "$t0" 80 \
  "k1=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small_k1 --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 1,2,4,8 --iters 50" | tail -n 20
echo "end $(( $(date +%s) - t0 ))s"
