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
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
mkdir -p /tmp/bld && tar xJf .carry/bld.txz -C /tmp/bld || exit 1
B=/tmp/bld
AB_END=${AB_END:-540}
export_on="MEGAMOE_W4A16_SMALL_PRODUCER=1"
for i in 0 1 2 3; do  # 184 tests in four concurrent shards
  env $export_on GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='W4A16.*:SmallTactic/*:Registered/Conformance.*fp4*' > "$R/tests_on_shard$i.log" 2>&1 &
done
wait
echo "tests (producer warp) $(el)s"; cat "$R"/tests_on_shard*.log | grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" | head -8
for t in racecheck memcheck synccheck; do
  env $export_on timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter=W4A16.GemmTacticsMatchCpu > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
K=$B/megamoe@MEGAMOE_W4A16_SMALL_PRODUCER
mkdir -p "$R/ab"
AB_VARIANTS="off=$K=0 on=$K=1" RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "$AB_END" \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
