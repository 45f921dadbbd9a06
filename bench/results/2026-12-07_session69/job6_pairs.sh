#!/usr/bin/env bash
# Session 69: two whole tiles a CTA in the W4A16 small tactic's TMA form (branch wip/two-tiles =
# pairs.patch beside this script, against 3d35c45). The kernel's ring now streams on across passes
# and tiles (a cursor in thread 0; before, it drained at the end of every pass), and
# MEGAMOE_W4A16_SMALL_PAIRS=1 gives a CTA two tiles when one tile a CTA would need between one and
# two waves at two CTAs per SM (deepseek-v3 T = 1's FC2: 448 -> 224 CTAs); =2 always two (tests).
# Carry [".carry"]: .carry/bld.txz = that build, .carry/bld_main.txz = main a395644 (the baseline).
#   1. the W4A16 GPU tests with PAIRS=2 and with the knob unset, four shards each;
#   2. deepseek-v3 / mixtral-8x7b T = 1 timelines: main, new (off), new (PAIRS=1);
#   3. A/B main / new / pairs, `auto` w4a16_mxfp4 T = 1..64 four presets, nvfp4 T = 1 / 16, until AB_END;
#   4. memcheck / racecheck on W4A16.GemmTacticsMatchCpu with PAIRS=2, in the time left.
# JB: the seconds the call may run (default 200).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-200}
BM=/tmp/bldm; mkdir -p $BM && tar xJf .carry/bld_main.txz -C $BM
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
MEGAMOE_W4A16_SMALL_PAIRS=2 sharded_gpu_tests pairs2 60 --gtest_filter="$F"
sharded_gpu_tests off 60 --gtest_filter="$F"
grep -hE "Failure|Expected|Which is|^\[  FAILED" "$R"/pairs2_shard*.log "$R"/off_shard*.log | head -12
G="--recipe w4a16_mxfp4 --tokens 1"
for p in deepseek-v3 mixtral-8x7b; do
  B0=$B; B=$BM ktrace_bench "${p}_main" -- $G --presets $p; B=$B0
  ktrace_bench "${p}_new" -- $G --presets $p
  MEGAMOE_W4A16_SMALL_PAIRS=1 ktrace_bench "${p}_pairs" -- $G --presets $p
done
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
NV="nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,16 --iters 50"
ab_variants "main=$BM/megamoe new=$B/megamoe pairs=$B/megamoe@MEGAMOE_W4A16_SMALL_PAIRS=1" 60 $((JB - 40)) "$MX" "$NV"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
[ "$T_SAN" -gt 12 ] && MEGAMOE_W4A16_SMALL_PAIRS=2 gpu_sanitizers 'W4A16.GemmTacticsMatchCpu' "$T_SAN" racecheck memcheck
echo "end $(el)s"
