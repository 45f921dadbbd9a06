#!/usr/bin/env bash
# Session 75: FC1 on the W4A16 small tactic's deep ring (branch wip/fc1-deep, knob MEGAMOE_W4A16_FC1_DEEP:
# 1 where FC1's grid fits one CTA per SM, 2 always). Carry [".carry"] (.carry/bld_fc1deep.txz: 469a210
# + the knob; knob off = this session's main). Why: session 72's FC1 K split (360 CTAs) lost 0.927x and
# session 69 found FC1 at gpt-oss-120b T = 1 streaming ~1.5-1.7 TB/s whatever its CTA count; its 180
# CTAs run two to an SM with one ~50 KB stage in flight each over only 5.6 stages of K. Forced deep, they
# run in two waves of one CTA per SM with three stages in flight. ~240 s (JB shortens the A/B).
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_fc1deep.txz} carried_job_start
cat "$R/gpu.txt"
G="--recipe w4a16_mxfp4 --tokens 1 --presets gpt-oss-120b --l2-flush read"
ktrace_bench base -- $G
MEGAMOE_W4A16_FC1_DEEP=2 ktrace_bench deep2 -- $G
# Correct with the knob forced: every W4A16 GEMM / backend / activation-epilogue test and the fp4
# conformance cases then run FC1 on the deep ring wherever the small TMA form applies.
MEGAMOE_W4A16_FC1_DEEP=2 sharded_gpu_tests k2 60 --gtest_filter='*W4A16*:*fp4*:*Fp4*'
JB=${JB:-230}
ab_variants "base=$B/megamoe deep1=$B/megamoe@MEGAMOE_W4A16_FC1_DEEP=1 deep2=$B/megamoe@MEGAMOE_W4A16_FC1_DEEP=2" 60 "$JB" \
  "mx=--recipe w4a16_mxfp4 --presets gpt-oss-120b,mixtral-8x7b,deepseek-v3,qwen3-30b-a3b --tokens 1,2,4 --iters 100" \
  "nv=--recipe w4a16_nvfp4 --presets gpt-oss-120b,mixtral-8x7b --tokens 1,2 --iters 100"
echo "end $(el)s"
