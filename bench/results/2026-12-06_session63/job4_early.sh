#!/usr/bin/env bash
# Session 63. Carry [".carry"]: bld.txz = cca344c + the W4A16 small tactic's early weights
# (W4A16GemmArgs::pdl: its GEMMs launched with PDL on a created stream, the first stages' codes and
# scales requested before the wait for the previous kernel; MEGAMOE_W4A16_SMALL_EARLY=0 is the
# plain launch of main). 1. the W4A16 GPU tests (the new SmallEarlyWeightsPdlEqualsPlainBitwise
# among them); 2. kernel timelines of w4a16_mxfp4 deepseek-v3 T = 1, knob off / on; 3. `auto`
# A/B, knob off / on, T = 1..64, mxfp4 and nvfp4, four presets, two rounds; 4. racecheck,
# synccheck, memcheck on the new test and SmallShapes.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
sharded_gpu_tests w4 150 --gtest_filter='W4A16*:*W4A16*:*w4a16*'
for v in 0 1; do
  MEGAMOE_W4A16_SMALL_EARLY=$v ktrace_bench "ds1_early$v" -- --recipe w4a16_mxfp4 --presets deepseek-v3 --tokens 1
done
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=420 knob_ab MEGAMOE_W4A16_SMALL_EARLY "off=0 on=1" 60 \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50"
gpu_sanitizers 'W4A16.SmallEarlyWeightsPdlEqualsPlainBitwise:W4A16.SmallShapes' 50 racecheck synccheck memcheck
echo "end $(el)s"
