#!/usr/bin/env bash
# Session 56: the W4A16 small tactic's direct form (MEGAMOE_W4A16_SMALL_TMA=3, branch
# wip/w4a16-small-ldg): each lane loads its two weight rows' codes and factor bytes straight from
# global memory into a ring of 8 K steps in registers (no weight stage in shared memory, no per-step
# barrier, no single issuing thread); activations in double-buffered chunks of 8 steps. For issue 15's
# decode targets (deepseek-v3 T = 1: 54% of the packed floor, 2.42x bf16; FC1 read at 2.55 TB/s).
# Two shapes: =3 a ring of 8 steps at two CTAs per SM, =4 a ring of 4 steps at three.
# One call: check (the W4A16 GPU tests with each knob, memcheck / racecheck, `megamoe run` against the
# CPU reference) until ~285 s, then the A/B against the TMA form (`auto` T = 1..32, both formats) until
# ~575 s. Carry [".carry"] (.carry/bld.txz: megamoe + megamoe_gpu_tests of the branch).
set -u
source scripts/device_env.sh
carried_job_start
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4_bf16_split*'
MEGAMOE_W4A16_SMALL_TMA=3 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_direct.log" 2>&1
echo "tests direct rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests ran" "$R/tests_direct.log" | head -12
F4='W4A16.GemmTacticsMatchCpu:W4A16.DecodeIsExact:W4A16.NaNScalePoisonsOnlyItsRow:SmallTactic*/W4A16ActEpilogue*:Registered/Conformance.*mxfp4_bf16_split*'
MEGAMOE_W4A16_SMALL_TMA=4 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F4" > "$R/tests_direct4.log" 2>&1
echo "tests direct4 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests ran" "$R/tests_direct4.log" | head -12
S='SmallTactic*/W4A16ActEpilogue*:W4A16.GemmTacticsMatchCpu:W4A16.NaNScalePoisonsOnlyItsRow'
for t in memcheck racecheck; do
  [ "$(left 250)" -lt 20 ] && { echo "skip $t (time)"; continue; }
  MEGAMOE_W4A16_SMALL_TMA=3 timeout "$(left 250)" compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests \
    --gtest_brief=1 --gtest_filter="$S" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in deepseek-v3 gpt-oss-120b mixtral-8x7b qwen3-30b-a3b; do
    [ "$(left 285)" -lt 8 ] && { echo "skip run $r $p (time)"; continue; }
    log="$R/run_${r}_$p.log"
    MEGAMOE_W4A16_SMALL_TMA=3 timeout 45 $B/megamoe run --recipe $r --preset $p --tokens 3 --iters 2 > "$log" 2>&1
    echo "run $r $p T=3 rc=$? $(grep -iE 'rel-L2' "$log" | tail -1 | cut -c1-110)"
  done
done
echo "check done $(el)s"
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
AB_END=575 knob_ab MEGAMOE_W4A16_SMALL_TMA "tma=1 direct8=3 direct4=4" 120 \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,32 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $P --tokens 1,8 --iters 50"
echo "end $(el)s"
