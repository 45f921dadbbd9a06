#!/usr/bin/env bash
# Prepared in session 51 (not run yet): the W4A16 small tactic's producer-warp form
# (w4a16_small_tma_kernel<..., PW = true>, MEGAMOE_W4A16_SMALL_PRODUCER=1; off by default), 16-token
# passes (T <= 64 on deepseek-v3, gpt-oss-120b, qwen3-30b-a3b; mixtral-8x7b's 32-token passes from
# T = 32 keep the default form). Carry [".carry"] (.carry/bld.txz = megamoe + megamoe_gpu_tests of
# the commit that added it or later); ~450-560 s:
#   1. the W4A16 GPU tests and the small tactic's activation-epilogue tests with the knob on;
#      racecheck / memcheck / synccheck on W4A16.GemmTacticsMatchCpu with it on;
#   2. A/B off / on, `auto`, w4a16_mxfp4 and w4a16_nvfp4, four presets, T = 1..64, two rounds.
set -u
source scripts/device_env.sh
carried_job_start
AB_END=${AB_END:-540}
MEGAMOE_W4A16_SMALL_PRODUCER=1 sharded_gpu_tests tests_on 150 \
  --gtest_filter='W4A16.*:SmallTactic/*:Registered/Conformance.*fp4*'  # 184 tests
MEGAMOE_W4A16_SMALL_PRODUCER=1 gpu_sanitizers W4A16.GemmTacticsMatchCpu 90 racecheck memcheck synccheck
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
K=$B/megamoe@MEGAMOE_W4A16_SMALL_PRODUCER
mkdir -p "$R/ab"
AB_VARIANTS="off=$K=0 on=$K=1" RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "$AB_END" \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
