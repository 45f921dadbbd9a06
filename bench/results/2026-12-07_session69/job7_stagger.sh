#!/usr/bin/env bash
# Session 69, prepared for the next session (not run): is the one-wave FC1 at T = 1 (deepseek-v3: 77% of
# the DRAM peak alone, 93% with ~12 waves at T = 16, call 8) slowed by CTAs that ask for their stages
# at the same moments? stagger.patch (beside this script, against 3d35c45 = branch wip/stagger):
# MEGAMOE_W4A16_SMALL_STAGGER=1 gives the CTAs whose linear index / SM count is odd (roughly the second
# CTA of each SM) a first stage of half the steps, so they run half a stage out of step with the rest;
# =2 does it to every odd CTA (the tests' grids are small). Build: `git apply stagger.patch`,
# `scripts/pack_carry.sh`, `git checkout src`. Carry [".carry"]: .carry/bld.txz = that build,
# .carry/bld_main.txz = main a395644 (the baseline: the patch's kernel differs with the knob off too,
# and session 69 measured a 3.4% cost from a small change of this loop).
#   1. the W4A16 GPU tests with STAGGER=2 and with the knob unset, four shards each;
#   2. deepseek-v3 / mixtral-8x7b / gpt-oss-120b T = 1 timelines: main, new (off), new (STAGGER=1);
#   3. A/B main / new / stagger, `auto` w4a16_mxfp4 T = 1..64 four presets, nvfp4 T = 1 / 16, until JB - 40;
#   4. racecheck / memcheck on W4A16.GemmTacticsMatchCpu with STAGGER=2, in the time left.
# JB: the seconds the call may run (default 220). Reading: if FC1 at deepseek-v3 T = 1 (57 us in the
# timeline) gets faster with STAGGER=1 despite its half-wasted first stages, CTAs in step cost it.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
JB=${JB:-220}
BM=/tmp/bldm; mkdir -p $BM && tar xJf .carry/bld_main.txz -C $BM
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
MEGAMOE_W4A16_SMALL_STAGGER=2 sharded_gpu_tests stagger2 60 --gtest_filter="$F"
sharded_gpu_tests off 60 --gtest_filter="$F"
grep -hE "Failure|Expected|Which is|^\[  FAILED" "$R"/stagger2_shard*.log "$R"/off_shard*.log | head -12
G="--recipe w4a16_mxfp4 --tokens 1"
for p in deepseek-v3 mixtral-8x7b gpt-oss-120b; do
  B=$BM ktrace_bench "${p}_main" -- $G --presets $p
  ktrace_bench "${p}_new" -- $G --presets $p
  MEGAMOE_W4A16_SMALL_STAGGER=1 ktrace_bench "${p}_stagger" -- $G --presets $p
done
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
NV="nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,16 --iters 50"
ab_variants "main=$BM/megamoe new=$B/megamoe stagger=$B/megamoe@MEGAMOE_W4A16_SMALL_STAGGER=1" 60 $((JB - 40)) "$MX" "$NV"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
[ "$T_SAN" -gt 12 ] && MEGAMOE_W4A16_SMALL_STAGGER=2 gpu_sanitizers 'W4A16.GemmTacticsMatchCpu' "$T_SAN" racecheck memcheck
echo "end $(el)s"
