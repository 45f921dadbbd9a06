#!/usr/bin/env bash
# Session 63. Carry [".carry"]: bld.txz = dcf6dc2 + MEGAMOE_W4A16_SMALL_EARLY=2 (every slot of the
# small tactic's ring requested before the PDL wait, not only the kAhead stages; 1 = dcf6dc2's kernel,
# the default). 1. the W4A16 GPU tests at 2; 2. racecheck / synccheck / memcheck at 2 on the bitwise
# test; 3. `auto` A/B 1 / 2 (and 0), T = 1..64, mxfp4 and nvfp4, four presets, two rounds; 4. deepseek-v3
# T = 1 timelines at 1 / 2.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
MEGAMOE_W4A16_SMALL_EARLY=2 sharded_gpu_tests w4e2 150 --gtest_filter='W4A16*:*W4A16*:*w4a16*'
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=300 knob_ab MEGAMOE_W4A16_SMALL_EARLY "e1=1 e2=2 e0=0" 60 \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50"
for v in 1 2; do
  MEGAMOE_W4A16_SMALL_EARLY=$v ktrace_bench "ds1_e$v" -- --recipe w4a16_mxfp4 --presets deepseek-v3 --tokens 1
done
MEGAMOE_W4A16_SMALL_EARLY=2 gpu_sanitizers 'W4A16.SmallEarlyWeightsPdlEqualsPlainBitwise:W4A16.SmallShapes' 60 racecheck synccheck memcheck
echo "end $(el)s"
