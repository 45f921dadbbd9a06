#!/usr/bin/env bash
# Session 70, prepared for the next session (not run): the W4A16 small tactic's deep ring (branch
# wip/deep-ring = deep_ring.patch beside this script, against main e506db3; knob MEGAMOE_W4A16_SMALL_DEEP:
# 1 = one CTA per SM with four 8-step stages (three in flight, against one) where the grid fits one CTA
# per SM -- gpt-oss-120b T = 1's FC2 (92 CTAs), mixtral-8x7b T = 1's FC2 (128); 2 = always). Why: at
# gpt-oss-120b T = 1 the small tactic's warps wait on the ring's stage barrier 33-37% of their cycles
# with DRAM 35-47% busy (ncu, session 69), FC2 runs 14.7 us after FC1 for 17 MB even with L2 clean
# (session 70). Carry [".carry"]: .carry/bld.txz = the branch's build (also main's `--l2-flush`),
# .carry/bld_main.txz = main a395644's kernels (the baseline). JB: seconds the call may run (default 300).
#   1. the W4A16 GPU tests with the knob at 2 and unset, four shards each;
#   2. T = 1 timelines (read flush) of gpt-oss-120b and mixtral-8x7b: main, new (knob unset), deep (1);
#   3. A/B main / new / deep, `auto`, w4a16_mxfp4 T = 1..64 four presets and nvfp4 T = 1 / 16 (memset
#      flush: the figures earlier sessions compare with), then main / deep at T = 1 / 2 under the read flush;
#   4. racecheck / memcheck on W4A16.GemmTacticsMatchCpu with the knob at 2, in the time left.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-300}
BM=/tmp/bldm; mkdir -p $BM && tar xJf .carry/bld_main.txz -C $BM
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
MEGAMOE_W4A16_SMALL_DEEP=2 sharded_gpu_tests deep2 60 --gtest_filter="$F"
sharded_gpu_tests off 60 --gtest_filter="$F"
grep -hE "Failure|Expected|Which is|^\[  FAILED" "$R"/deep2_shard*.log "$R"/off_shard*.log | head -12
G="--recipe w4a16_mxfp4 --tokens 1"
for p in gpt-oss-120b mixtral-8x7b; do
  MEGAMOE_BENCH_FLUSH=read B=$BM ktrace_bench "${p}_main" -- $G --presets $p
  MEGAMOE_BENCH_FLUSH=read ktrace_bench "${p}_new" -- $G --presets $p
  MEGAMOE_BENCH_FLUSH=read MEGAMOE_W4A16_SMALL_DEEP=1 ktrace_bench "${p}_deep" -- $G --presets $p
done
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
NV="nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,16 --iters 50"
ab_variants "main=$BM/megamoe new=$B/megamoe deep=$B/megamoe@MEGAMOE_W4A16_SMALL_DEEP=1" 60 $((JB * 55 / 100)) "$MX" "$NV"
mkdir -p "$R/ab_read"
AB_VARIANTS="main=$BM/megamoe@MEGAMOE_BENCH_FLUSH=read deep=$B/megamoe@MEGAMOE_W4A16_SMALL_DEEP=1@MEGAMOE_BENCH_FLUSH=read" \
  RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab_read" x x 2 "$t0" $((JB * 72 / 100)) \
  "rd=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2 --iters 50" > "$R/ab_read.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab_read.txt"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
if [ "$T_SAN" -gt 12 ]; then
  export MEGAMOE_W4A16_SMALL_DEEP=2; gpu_sanitizers 'W4A16.GemmTacticsMatchCpu' "$T_SAN" racecheck memcheck
  unset MEGAMOE_W4A16_SMALL_DEEP
fi
echo "end $(el)s"
