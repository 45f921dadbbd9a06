#!/usr/bin/env bash
# Session 68: job2_balanced2.sh cut to what ~200 s of device time can hold (the calls before it
# spent the budget finding no machine): the balanced form's second build (.carry/bld.txz, from
# small_balanced_v2.patch as job2_balanced2.sh says) checked
# (new test, W4A16 suite with the knob on), gpt-oss-120b T = 1 timelines off / on, the A/B off / on
# over `auto` w4a16_mxfp4 T = 1..64 on four presets (as many rounds as fit), memcheck / racecheck last.
# JB: the seconds the call may run (default 200).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-200}
timeout 60 $B/megamoe_gpu_tests --gtest_filter='W4A16.SmallBalancedMatchesCpu' > "$R/t_new.log" 2>&1
echo "new test rc=$? $(el)s"; grep -E "^\[  (PASSED|FAILED)|Failure|Expected|Which is" "$R/t_new.log" | head -20
export MEGAMOE_W4A16_SMALL_BALANCED=1
sharded_gpu_tests on 100 --gtest_filter='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
unset MEGAMOE_W4A16_SMALL_BALANCED
G="--recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1"
ktrace_bench off -- $G
MEGAMOE_W4A16_SMALL_BALANCED=1 ktrace_bench on -- $G
AB_END=$((JB - 35)) knob_ab MEGAMOE_W4A16_SMALL_BALANCED "off=0 on=1" 60 \
  "mx=--recipe w4a16_mxfp4 --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 1,2,4,8,16,32,64 --iters 50"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
[ "$T_SAN" -gt 10 ] && gpu_sanitizers 'W4A16.SmallBalancedMatchesCpu' "$T_SAN" memcheck racecheck
echo "end $(el)s"
