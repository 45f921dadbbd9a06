#!/usr/bin/env bash
# Session 67: the W4A16 small tactic's balanced form (small_balanced.patch beside this script, against
# main a395644: built and CI-clean on the CPU machine as branch wip/w4a16-small-balanced 0722827; knob
# MEGAMOE_W4A16_SMALL_BALANCED, default off: with it off the binary runs main's kernels). To run it:
# `git apply bench/results/2026-12-07_session67/small_balanced.patch`, `scripts/pack_carry.sh`, undo the
# patch. Carry [".carry"]: .carry/bld.txz = that build.
#   1. the new GEMM test, then the W4A16 GPU tests (GEMM, activation epilogues, conformance of the
#      four W4A16 backends, early-PDL bitwise) with the knob on, four shards;
#   2. gpt-oss-120b T = 1 timelines off / on (the GEMMs' durations);
#   3. the A/B: knob 0 against 1 (two CTAs per SM) and 2 (one), `auto` w4a16_mxfp4 T = 1..64 on four presets, nvfp4 T = 1 / 16;
#   4. memcheck and racecheck on the new test, in the time left.
# JB: the seconds the call may run (default 560).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-560}
timeout 120 $B/megamoe_gpu_tests --gtest_filter='W4A16.SmallBalancedMatchesCpu' > "$R/t_new.log" 2>&1
echo "new test rc=$? $(el)s"; grep -E "^\[  (PASSED|FAILED)|Failure|Expected|Which is|rel-L2|flags" "$R/t_new.log" | head -20
export MEGAMOE_W4A16_SMALL_BALANCED=1
sharded_gpu_tests on 200 --gtest_filter='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
unset MEGAMOE_W4A16_SMALL_BALANCED
G="--recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1"
ktrace_bench off -- $G
MEGAMOE_W4A16_SMALL_BALANCED=1 ktrace_bench on -- $G
AB_END=$((JB - 170)) knob_ab MEGAMOE_W4A16_SMALL_BALANCED "off=0 on=1 one=2" 100 \
  "mx=--recipe w4a16_mxfp4 --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 1,2,4,8,16,32,64 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 1,16 --iters 50"
T_SAN=$(( ($(left $JB) - 10) / 2 ))
[ "$T_SAN" -gt 20 ] && gpu_sanitizers 'W4A16.SmallBalancedMatchesCpu' "$T_SAN" memcheck racecheck
echo "end $(el)s"
