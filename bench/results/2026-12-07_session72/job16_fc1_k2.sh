#!/usr/bin/env bash
# Session 72: under split_small_deep, FC1's K in two parts (MEGAMOE_W4A16_DEEP_FC1_SPLITS=2, a WIP
# knob on branch wip/fc1-k2: 360 CTAs at gpt-oss-120b T = 1 instead of 180 on 132 SMs, where 48 SMs
# hold two CTAs and 84 one; the price: fp32 h, the activation kernel, the zeroing). FC2 stays K whole
# on the deep ring. Carry [".carry"] (.carry/bld_fc1k2.txz: 9c5ecf8 + the knob).
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_fc1k2.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-150}
G="--recipe w4a16_mxfp4 --tokens 1 --presets gpt-oss-120b --l2-flush read"
ktrace_bench base -- $G
MEGAMOE_W4A16_DEEP_FC1_SPLITS=2 ktrace_bench fc1k2 -- $G
D="--tactic split_small_deep --iters 100"
ab_variants "base=$B/megamoe fc1k2=$B/megamoe@MEGAMOE_W4A16_DEEP_FC1_SPLITS=2" 60 $((JB - 5)) \
  "mx=--recipe w4a16_mxfp4 --presets gpt-oss-120b,mixtral-8x7b,deepseek-v3 --tokens 1,2 $D" \
  "nv=--recipe w4a16_nvfp4 --presets gpt-oss-120b,mixtral-8x7b --tokens 1,2 $D"
echo "end $(el)s"
