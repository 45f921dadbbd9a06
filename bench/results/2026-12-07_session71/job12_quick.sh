#!/usr/bin/env bash
# Session 71, for a call with little device time left: job11's A/B alone at T = 1 (w4a16_mxfp4, four
# presets, `auto`): base / pf32 / pf64 / deep / pf64 + deep, two alternated rounds. No tests: a signal
# for the next session, nothing shipped from it. Carry [".carry"] (.carry/bld_pfdeep.txz). JB default 110.
# The archive: `git apply bench/results/2026-12-07_session71/pf_deep.patch` on main a2c867d,
# then scripts/pack_carry.sh BUILD_DIR (it writes .carry/bld.txz: rename it bld_pfdeep.txz). None of this ran: no device machine started in session 71.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_pfdeep.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-110}
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
PF=MEGAMOE_W4A16_SMALL_PREFETCH_MB
ab_variants "base=$B/megamoe pf32=$B/megamoe@$PF=32 pf64=$B/megamoe@$PF=64 deep=$B/megamoe@MEGAMOE_W4A16_SMALL_DEEP=1 pfdeep=$B/megamoe@$PF=64@MEGAMOE_W4A16_SMALL_DEEP=1" \
  40 $((JB - 5)) "t1=--recipe w4a16_mxfp4 --presets $P4 --tokens 1 --iters 50"
echo "end $(el)s"
