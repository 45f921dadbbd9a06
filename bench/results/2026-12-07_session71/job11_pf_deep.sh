#!/usr/bin/env bash
# Session 71: two answers to the decode gap of the W4A16 small tactic in one build (branch wip/pf-deep:
# main + W4A16GemmArgs::next + session 70's deep ring; both knobs default off, so "base" is main's code).
#   pf (MEGAMOE_W4A16_SMALL_PREFETCH_MB = budget): each FC1 CTA of expert g requests its share of expert
#     g's FC2 codes and scale tiles into L2 (prefetch.global.L2) before its pass loop, when grid.y
#     experts' FC2 weights fit the budget; FC2 then reads them from L2. gpt-oss-120b T = 1: FC1 34 MB in
#     21.6 us with HBM 35-47% busy, FC2 17 MB in 14.7 us after it (session 70).
#   deep (MEGAMOE_W4A16_SMALL_DEEP=1): one CTA per SM with four 8-step stages where the grid fits one CTA
#     per SM (gpt-oss-120b / mixtral-8x7b T = 1's FC2); =2 always.
# Carry [".carry"]: .carry/bld_pfdeep.txz. JB: seconds the call may run (default 330); TOK: the A/B's tokens (1,2,4,8).
#   1. W4A16 GEMM tests and the split backend's fp4 conformance with both forced on (budget 4096, DEEP=2);
#   2. T = 1 timelines of gpt-oss-120b: base, pf64, deep, pf64 + deep;
#   3. A/B base / pf32 / pf64 / deep / pf64 + deep, `auto`, w4a16_mxfp4 T = 1..8 on four presets;
#   4. memcheck (split fp4 conformance T = 1 / 7) and racecheck (W4A16.GemmTacticsMatchCpu), both forced on.
# The archive: `git apply bench/results/2026-12-07_session71/pf_deep.patch` on main a2c867d,
# then scripts/pack_carry.sh BUILD_DIR (it writes .carry/bld.txz: rename it bld_pfdeep.txz). None of this ran: no device machine started in session 71.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_pfdeep.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-330}
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
MEGAMOE_W4A16_SMALL_PREFETCH_MB=4096 MEGAMOE_W4A16_SMALL_DEEP=2 sharded_gpu_tests on 70 --gtest_filter="$F"
grep -hE "Failure|Expected|Which is|^\[  FAILED|PASSED|tests ran" "$R"/on_shard*.log | head -16
G="--recipe w4a16_mxfp4 --tokens 1 --presets gpt-oss-120b"
ktrace_bench base -- $G
MEGAMOE_W4A16_SMALL_PREFETCH_MB=64 ktrace_bench pf64 -- $G
MEGAMOE_W4A16_SMALL_DEEP=1 ktrace_bench deep -- $G
MEGAMOE_W4A16_SMALL_PREFETCH_MB=64 MEGAMOE_W4A16_SMALL_DEEP=1 ktrace_bench pf64deep -- $G
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens ${TOK:-1,2,4,8} --iters 50"
PF=MEGAMOE_W4A16_SMALL_PREFETCH_MB
ab_variants "base=$B/megamoe pf32=$B/megamoe@$PF=32 pf64=$B/megamoe@$PF=64 deep=$B/megamoe@MEGAMOE_W4A16_SMALL_DEEP=1 pfdeep=$B/megamoe@$PF=64@MEGAMOE_W4A16_SMALL_DEEP=1" \
  60 $((JB * 82 / 100)) "$MX"
T_SAN=$(( ($(left $JB) - 5) / 2 ))
if [ "$T_SAN" -gt 12 ]; then
  export MEGAMOE_W4A16_SMALL_PREFETCH_MB=4096 MEGAMOE_W4A16_SMALL_DEEP=2
  gpu_sanitizers 'Registered/Conformance.*mxfp4_bf16_split__tokens_T1:Registered/Conformance.*mxfp4_bf16_split__tokens_T7' "$T_SAN" memcheck
  gpu_sanitizers 'W4A16.GemmTacticsMatchCpu' "$T_SAN" racecheck
  unset MEGAMOE_W4A16_SMALL_PREFETCH_MB MEGAMOE_W4A16_SMALL_DEEP
fi
echo "end $(el)s"
