#!/usr/bin/env bash
# Session 68, the balanced form's second build: thread 0 walks the units without divisions
# (small_balanced_v2.patch beside this script, against main 002b285: `git apply` it,
# `scripts/pack_carry.sh`, undo it). Carry [".carry"]: .carry/bld.txz = that build.
#   1. the new GEMM test, the W4A16 GPU suite with the knob on (four shards);
#   2. gpt-oss-120b T = 1 timelines off / on;
#   3. A/B knob 0 / 1 over `auto` w4a16_mxfp4 T = 1..64 on four presets, nvfp4 T = 1 / 16;
#   4. ncu of both forms' GEMMs at gpt-oss-120b T = 1 (SourceCounters), then memcheck / racecheck.
# JB: the seconds the call may run (default 540). LEAN=1: for ~200 s of device time (the calls
# before it had spent the budget finding no machine): no nvfp4 cells and no ncu, the A/B until 35 s
# before the end.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-540}
timeout 120 $B/megamoe_gpu_tests --gtest_filter='W4A16.SmallBalancedMatchesCpu' > "$R/t_new.log" 2>&1
echo "new test rc=$? $(el)s"; grep -E "^\[  (PASSED|FAILED)|Failure|Expected|Which is" "$R/t_new.log" | head -20
export MEGAMOE_W4A16_SMALL_BALANCED=1
sharded_gpu_tests on 200 --gtest_filter='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
unset MEGAMOE_W4A16_SMALL_BALANCED
G="--recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1"
ktrace_bench off -- $G
MEGAMOE_W4A16_SMALL_BALANCED=1 ktrace_bench on -- $G
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
if [ "${LEAN:-0}" = 1 ]; then
  AB_END=$((JB - 35)) knob_ab MEGAMOE_W4A16_SMALL_BALANCED "off=0 on=1" 60 "$MX"
else
  AB_END=$((JB - 200)) knob_ab MEGAMOE_W4A16_SMALL_BALANCED "off=0 on=1" 100 "$MX" \
    "nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,16 --iters 50"
fi
SEC="--section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy"
M="gpu__time_duration.sum,dram__bytes_read.sum,sm__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
[ "${LEAN:-0}" != 1 ] && [ "$(left $JB)" -gt 120 ] && scripts/ncu_kernels.sh "$R/small_gptoss_t1" w4a16_small_tma 2 60 "$SEC" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset gpt-oss-120b --tokens 1 --iters 2 --no-check
echo "ncu small rc=$? $(el)s"
[ "${LEAN:-0}" != 1 ] && [ "$(left $JB)" -gt 90 ] && MEGAMOE_W4A16_SMALL_BALANCED=1 scripts/ncu_kernels.sh "$R/balanced_gptoss_t1" balanced 2 60 "$SEC" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset gpt-oss-120b --tokens 1 --iters 2 --no-check
echo "ncu balanced rc=$? $(el)s"
for f in "$R"/*_source.csv.gz; do [ -f "$f" ] && python3 scripts/ncu_sass_stalls.py --top 25 "$f" > "${f%.csv.gz}_top.txt" 2>&1; done
T_SAN=$(( ($(left $JB) - 10) / 2 ))
[ "$T_SAN" -gt 20 ] && gpu_sanitizers 'W4A16.SmallBalancedMatchesCpu' "$T_SAN" memcheck racecheck
echo "end $(el)s"
