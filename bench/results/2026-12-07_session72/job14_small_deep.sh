#!/usr/bin/env bash
# Session 72: the deep ring as a tactic (`split_small_deep`: split_small_k1 with FC2 on one CTA per SM
# and four 8-step stages where FC2's grid fits one CTA per SM; W4A16GemmArgs::small_deep). Carry
# [".carry"]: .carry/bld_deep.txz (scripts/pack_carry.sh of the working tree; renamed).
#   1. W4A16 GEMM tests (W4A16.SmallDeepRingMatchesCpu new), the activation epilogues (the decode set
#      also on the deep ring), every fp4 conformance case (every_tactic runs split_small_deep);
#   2. `megamoe tune`, both fp4 formats, gpt-oss-120b / mixtral-8x7b (the presets where FC2's grid
#      fits one CTA per SM at small T), T = 1 / 2 / 4: the table's entries;
#   3. `auto` with the shipped table against `auto` with the tune's cache, the same cells, two rounds;
#   4. memcheck and racecheck of the deep ring's tests.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_deep.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-300}
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
sharded_gpu_tests on 80 --gtest_filter="$F"
grep -hE "Failure|Expected|Which is|^\[  FAILED|PASSED|tests ran" "$R"/on_shard*.log | head -16
P2=gpt-oss-120b,mixtral-8x7b
tune_until mx 150 --recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4
tune_until nv 180 --recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4
merge_tune_caches "$R/tuned.json" "$R/tune_mx.json" "$R/tune_nv.json"
tuned_vs_shipped $((JB * 80 / 100)) 60 "mx=--recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4 --iters 100" \
  "nv=--recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4 --iters 100"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
if [ "$T_SAN" -gt 12 ]; then
  S='W4A16.SmallDeep*:SmallTactic/W4A16ActEpilogue.MatchesActivationKernel/2'
  gpu_sanitizers "$S" "$T_SAN" memcheck racecheck
fi
echo "end $(el)s"
