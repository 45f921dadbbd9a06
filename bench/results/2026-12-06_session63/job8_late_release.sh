#!/usr/bin/env bash
# Session 63, prepared and not run (the device budget was spent). Carry [".carry"]: bld.txz = 5154318
# + late_release.patch, whose MEGAMOE_W4A16_SMALL_EARLY=3 keeps the early weight requests and releases
# the next kernel after the last pass's K loop instead of at the start (FC2's CTAs then do not wait
# beside FC1's last wave: the suspected cost at qwen3-30b-a3b T = 16..64); 1 = 5154318's kernel, the
# default. 1. the W4A16 GPU tests at 3; 2. `auto` A/B 1 / 3, T = 1..64, mxfp4, four presets, two
# rounds; 3. racecheck at 3 on the bitwise test. For a full budget: nvfp4 too, synccheck / memcheck.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
MEGAMOE_W4A16_SMALL_EARLY=3 sharded_gpu_tests w4e3 60 --gtest_filter='W4A16*:*W4A16*:*w4a16*'
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=60 knob_ab MEGAMOE_W4A16_SMALL_EARLY "e1=1 e3=3" 30 \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50"
MEGAMOE_W4A16_SMALL_EARLY=3 gpu_sanitizers 'W4A16.SmallEarlyWeightsPdlEqualsPlainBitwise' 30 racecheck
echo "end $(el)s"
