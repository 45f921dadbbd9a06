#!/usr/bin/env bash
# Session 63. Carry [".carry"]: bld.txz = dcf6dc2 + MEGAMOE_W4A16_SMALL_L2_AHEAD (the W4A16 small
# tactic's codes of the stage P ahead of each load prefetched into L2 by TMA, P more before the
# early wait; default 0 = dcf6dc2's kernel). 1. the W4A16 GPU tests at P = 4; 2. `auto` A/B P = 0 / 2
# / 4, T = 1..64, mxfp4 and nvfp4, four presets, two rounds; 3. kernel timelines at deepseek-v3 and
# gpt-oss-120b T = 1, P = 0 / 4.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
MEGAMOE_W4A16_SMALL_L2_AHEAD=4 sharded_gpu_tests w4p4 150 --gtest_filter='W4A16*:*W4A16*:*w4a16*'
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=400 knob_ab MEGAMOE_W4A16_SMALL_L2_AHEAD "p0=0 p2=2 p4=4" 60 \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50"
for m in deepseek-v3 gpt-oss-120b; do
  for v in 0 4; do
    [ "$(left 560)" -lt 15 ] && continue
    MEGAMOE_W4A16_SMALL_L2_AHEAD=$v ktrace_bench "${m}_p$v" -- --recipe w4a16_mxfp4 --presets $m --tokens 1
  done
done
echo "end $(el)s"
