#!/usr/bin/env bash
# Session 69: the W4A16 small tactic's TMA form with a rotated K walk (MEGAMOE_W4A16_SMALL_ROTATE=1: each
# CTA starts its K part at stage (blockIdx.x + 5 blockIdx.y) mod KS and wraps), so that the CTAs that
# stream at the same moment ask for different columns of their weight rows. Call 4 found FC1 at T = 1
# streaming ~2.1 TB/s (deepseek-v3, mixtral-8x7b) whatever the CTA count, ring depth or copy engine: a
# limit on the memory side is one explanation (every CTA of an expert reads the same column of rows
# K / 2 bytes apart). Carry [".carry"]: .carry/bld.txz = main 3d35c45 + rotate.patch (knob default off).
#   1. the W4A16 GPU tests with the knob on, four shards (the rotation changes the order of the fp32
#      sums: bitwise comparisons between grids of different tiles may fail, which is itself a result);
#   2. deepseek-v3 / gpt-oss-120b T = 1 timelines off / on;
#   3. the A/B off / on, `auto` w4a16_mxfp4 T = 1..64 on four presets, nvfp4 T = 1 / 16, until AB_END;
#   4. memcheck / racecheck on W4A16.GemmTacticsMatchCpu with the knob on, in the time left.
# JB: the seconds the call may run (default 330).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-330}
MEGAMOE_W4A16_SMALL_ROTATE=1 sharded_gpu_tests on 120 --gtest_filter='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
grep -hE "Failure|Expected|Which is|^\[  FAILED" "$R"/on_shard*.log | head -16
for p in deepseek-v3 gpt-oss-120b; do
  ktrace_bench "${p}_off" -- --recipe w4a16_mxfp4 --presets $p --tokens 1
  MEGAMOE_W4A16_SMALL_ROTATE=1 ktrace_bench "${p}_on" -- --recipe w4a16_mxfp4 --presets $p --tokens 1
done
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
NV="nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,16 --iters 50"
AB_END=$((JB - 60)) knob_ab MEGAMOE_W4A16_SMALL_ROTATE "off=0 on=1" 60 "$MX" "$NV"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
[ "$T_SAN" -gt 15 ] && MEGAMOE_W4A16_SMALL_ROTATE=1 gpu_sanitizers 'W4A16.GemmTacticsMatchCpu' "$T_SAN" memcheck racecheck
echo "end $(el)s"
