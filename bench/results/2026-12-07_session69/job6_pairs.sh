#!/usr/bin/env bash
# Session 69: a kernel patch with an A/B knob against main, three binaries in one job. Defaults: what
# call 9 ran -- two whole tiles a CTA in the W4A16 small tactic's TMA form (branch wip/two-tiles =
# pairs.patch beside this script, against 3d35c45). The kernel's ring there streams on across passes
# and tiles (a cursor in thread 0; before, it drained at the end of every pass), and
# MEGAMOE_W4A16_SMALL_PAIRS=1 gives a CTA two tiles when one tile a CTA would need between one and two
# waves at two CTAs per SM (deepseek-v3 T = 1's FC2: 448 -> 224 CTAs); =2 always two (tests).
# job7_stagger.sh runs it for the next patch. Knobs:
#   KNOB (MEGAMOE_W4A16_SMALL_PAIRS), NAME (pairs): the patch's knob and the variant's name;
#   TEST_VALUE (2): the knob's value for the tests and sanitizers; AB_VALUE (1): for timelines and A/B;
#   PRESETS ("deepseek-v3 mixtral-8x7b"): the T = 1 timelines; JB (200): the seconds the call may run.
# Carry [".carry"]: .carry/bld.txz = the patch's build, .carry/bld_main.txz = main a395644 (the baseline:
# a patched kernel differs from main's with its knob off too).
#   1. the W4A16 GPU tests with KNOB=TEST_VALUE and with the knob unset, four shards each;
#   2. T = 1 timelines on PRESETS: main, new (knob unset), NAME (KNOB=AB_VALUE);
#   3. A/B main / new / NAME, `auto` w4a16_mxfp4 T = 1..64 four presets, nvfp4 T = 1 / 16, until JB - 40;
#   4. racecheck / memcheck on W4A16.GemmTacticsMatchCpu with KNOB=TEST_VALUE, in the time left.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
KNOB=${KNOB:-MEGAMOE_W4A16_SMALL_PAIRS}; NAME=${NAME:-pairs}; TEST_VALUE=${TEST_VALUE:-2}; AB_VALUE=${AB_VALUE:-1}
PRESETS=${PRESETS:-deepseek-v3 mixtral-8x7b}; JB=${JB:-200}
BM=/tmp/bldm; mkdir -p $BM && tar xJf .carry/bld_main.txz -C $BM
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
export "$KNOB=$TEST_VALUE"; sharded_gpu_tests "${NAME}$TEST_VALUE" 60 --gtest_filter="$F"; unset "$KNOB"
sharded_gpu_tests off 60 --gtest_filter="$F"
grep -hE "Failure|Expected|Which is|^\[  FAILED" "$R/${NAME}${TEST_VALUE}"_shard*.log "$R"/off_shard*.log | head -12
G="--recipe w4a16_mxfp4 --tokens 1"
for p in $PRESETS; do
  B=$BM ktrace_bench "${p}_main" -- $G --presets $p
  ktrace_bench "${p}_new" -- $G --presets $p
  export "$KNOB=$AB_VALUE"; ktrace_bench "${p}_$NAME" -- $G --presets $p; unset "$KNOB"
done
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
NV="nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,16 --iters 50"
ab_variants "main=$BM/megamoe new=$B/megamoe $NAME=$B/megamoe@$KNOB=$AB_VALUE" 60 $((JB - 40)) "$MX" "$NV"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
if [ "$T_SAN" -gt 12 ]; then
  export "$KNOB=$TEST_VALUE"; gpu_sanitizers 'W4A16.GemmTacticsMatchCpu' "$T_SAN" racecheck memcheck; unset "$KNOB"
fi
echo "end $(el)s"
