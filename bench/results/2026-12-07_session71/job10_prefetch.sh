#!/usr/bin/env bash
# Session 71: FC2's weights requested into L2 during FC1 (W4A16GemmArgs::next, branch wip/prefetch-next;
# knob MEGAMOE_W4A16_SMALL_PREFETCH_MB: the budget, 0 = off, the default). Why: at gpt-oss-120b T = 1 FC1
# streams 34 MB in 21.6 us with HBM 35-47% busy and FC2 then reads its 17 MB in 14.7 us (session 70,
# read flush): the layer's span is 42.3 us against a 17.5 us floor. Each FC1 CTA of expert g requests
# its share of expert g's FC2 codes and scale tiles (prefetch.global.L2, one 128-byte line a request,
# ~3 per thread) before its pass loop. Carry [".carry"]: .carry/bld_pfdeep.txz (the deep ring's knob stays off).
# MEGAMOE_W4A16_SMALL_PREFETCH_LATE=1 issues the requests after the CTA's last pass instead.
# JB: seconds the call may run (default 320).
#   1. W4A16 GEMM tests and the split backend's fp4 conformance with the budget at 4096 MB (always on);
#   2. T = 1 timelines of gpt-oss-120b and qwen3-30b-a3b, budget 0 and 64;
#   3. A/B budget 0 / 32 / 64 / 64 late, `auto`, w4a16_mxfp4 T = 1..8 four presets (then nvfp4 T = 1 / 2);
#   4. memcheck on the split backend's mxfp4 conformance at T = 1 / 7 with the budget at 4096.
# The archive: `git apply bench/results/2026-12-07_session71/pf_deep.patch` on main a2c867d,
# then scripts/pack_carry.sh BUILD_DIR (it writes .carry/bld.txz: rename it bld_pfdeep.txz). None of this ran: no device machine started in session 71.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_pfdeep.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-320}
F='W4A16.*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
MEGAMOE_W4A16_SMALL_PREFETCH_MB=4096 sharded_gpu_tests pf 60 --gtest_filter="$F"
grep -hE "Failure|Expected|Which is|^\[  FAILED|PASSED|tests ran" "$R"/pf_shard*.log | head -16
G="--recipe w4a16_mxfp4 --tokens 1"
for p in gpt-oss-120b qwen3-30b-a3b; do
  ktrace_bench "${p}_pf0" -- $G --presets $p
  MEGAMOE_W4A16_SMALL_PREFETCH_MB=64 ktrace_bench "${p}_pf64" -- $G --presets $p
done
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8 --iters 50"
NV="nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,2 --iters 50"
V="pf0=$B/megamoe pf32=$B/megamoe@MEGAMOE_W4A16_SMALL_PREFETCH_MB=32 pf64=$B/megamoe@MEGAMOE_W4A16_SMALL_PREFETCH_MB=64"
ab_variants "$V pf64L=$B/megamoe@MEGAMOE_W4A16_SMALL_PREFETCH_MB=64@MEGAMOE_W4A16_SMALL_PREFETCH_LATE=1" \
  60 $((JB * 85 / 100)) "$MX" "$NV"
T_SAN=$(( $(left $JB) - 5 ))
if [ "$T_SAN" -gt 12 ]; then
  export MEGAMOE_W4A16_SMALL_PREFETCH_MB=4096
  gpu_sanitizers 'Registered/Conformance.*mxfp4_bf16_split__tokens_T1:Registered/Conformance.*mxfp4_bf16_split__tokens_T7' "$T_SAN" memcheck
  unset MEGAMOE_W4A16_SMALL_PREFETCH_MB
fi
echo "end $(el)s"
