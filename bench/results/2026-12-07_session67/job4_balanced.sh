#!/usr/bin/env bash
# Session 67: the W4A16 small tactic's balanced form (small_balanced.patch beside this script, against
# main a395644: built and CI-clean on the CPU machine as branch wip/w4a16-small-balanced 0722827; knob
# MEGAMOE_W4A16_SMALL_BALANCED, default off: with it off the binary runs main's kernels). To run it:
# `git apply bench/results/2026-12-07_session67/small_balanced.patch`, `scripts/pack_carry.sh`, undo the
# patch. Carry [".carry"]: .carry/bld.txz = that build. (Session 68's second form,
# ../2026-12-07_session68/small_balanced_v2.patch, runs through this job the same way.)
#   1. the new GEMM test, then the W4A16 GPU tests (GEMM, activation epilogues, conformance of the
#      four W4A16 backends, early-PDL bitwise) with the knob on, four shards;
#   2. gpt-oss-120b T = 1 timelines off / on;
#   3. the A/B: knob 0 against 1 (two CTAs per SM) and 2 (one), `auto` w4a16_mxfp4 T = 1..64 on four presets, nvfp4 T = 1 / 16;
#   4. memcheck and racecheck on the new test, in the time left.
# JB: the seconds the call may run (default 560). Session 68 added knobs whose defaults are what
# session 68's call 1 ran with the command above:
#   BAL_VARIANTS  the A/B's variants (default "off=0 on=1 one=2"; the second form has no value 2)
#   LEAN=1        for ~200 s of device time: mxfp4 cells only, the A/B until 35 s before the end, no NCU / PEERS
#   NCU=1         ncu (SourceCounters) of both forms' GEMMs at gpt-oss-120b T = 1 after the A/B (~100 s)
#   PEERS=1       bench/run_bench.py with the form on and OpenAI's triton_kernels MoE as the baseline,
#                 w4a16_mxfp4 T = 1 / 4 / 16 / 64 on deepseek-v3 / gpt-oss-120b (~90 s; carry .peers too)
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-560}
LEAN=${LEAN:-0}; NCU=${NCU:-0}; PEERS=${PEERS:-0}
[ "$LEAN" = 1 ] && { NCU=0; PEERS=0; }
timeout 120 $B/megamoe_gpu_tests --gtest_filter='W4A16.SmallBalancedMatchesCpu' > "$R/t_new.log" 2>&1
echo "new test rc=$? $(el)s"; grep -E "^\[  (PASSED|FAILED)|Failure|Expected|Which is|rel-L2|flags" "$R/t_new.log" | head -20
export MEGAMOE_W4A16_SMALL_BALANCED=1
sharded_gpu_tests on 200 --gtest_filter='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
unset MEGAMOE_W4A16_SMALL_BALANCED
G="--recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1"
ktrace_bench off -- $G
MEGAMOE_W4A16_SMALL_BALANCED=1 ktrace_bench on -- $G
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
NV="nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,16 --iters 50"
if [ "$LEAN" = 1 ]; then
  AB_END=$((JB - 35)) knob_ab MEGAMOE_W4A16_SMALL_BALANCED "${BAL_VARIANTS:-off=0 on=1}" 60 "$MX"
else
  AB_END=$((JB - 170 - 100 * NCU - 90 * PEERS)) knob_ab MEGAMOE_W4A16_SMALL_BALANCED \
    "${BAL_VARIANTS:-off=0 on=1 one=2}" 100 "$MX" "$NV"
fi
if [ "$NCU" = 1 ]; then
  SEC="--section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy"
  M="gpu__time_duration.sum,dram__bytes_read.sum,sm__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
  for form in small:w4a16_small_tma:0 balanced:balanced:1; do
    IFS=: read -r name regex knob <<< "$form"
    MEGAMOE_W4A16_SMALL_BALANCED=$knob scripts/ncu_kernels.sh "$R/${name}_gptoss_t1" "$regex" 2 60 "$SEC" "$M" -- \
      $B/megamoe run --recipe w4a16_mxfp4 --preset gpt-oss-120b --tokens 1 --iters 2 --no-check
    echo "ncu $name rc=$? $(el)s"
  done
  for f in "$R"/*_source.csv.gz; do [ -f "$f" ] && python3 scripts/ncu_sass_stalls.py --top 25 "$f" > "${f%.csv.gz}_top.txt" 2>&1; done
fi
if [ "$PEERS" = 1 ]; then
  MEGAMOE_W4A16_SMALL_BALANCED=1 timeout 90 python3 bench/run_bench.py --build $B --presets deepseek-v3,gpt-oss-120b \
    --iters 50 --out "$R/peers_mx.json" --recipe w4a16_mxfp4 --tokens 1,4,16,64 \
    --triton-kernels-peer .peers/triton_kernels_moe.py > "$R/peers_mx.txt" 2>&1
  echo "peers rc=$? $(el)s"; grep -v "^\[" "$R/peers_mx.txt" | tail -12 | cut -c1-150
fi
T_SAN=$(( ($(left $JB) - 10) / 2 ))
[ "$T_SAN" -gt 20 ] && gpu_sanitizers 'W4A16.SmallBalancedMatchesCpu' "$T_SAN" memcheck racecheck
echo "end $(el)s"
