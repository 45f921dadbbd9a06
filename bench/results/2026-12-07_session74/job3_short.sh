#!/usr/bin/env bash
# Session 74's last call (~390 s of device time left after 13 failed starts): a short job, ~200 s.
# Carry [".carry"] (.carry/bld_main73.txz: main at 9c9fb4c; .carry/bld_fc1k2.txz: wip/fc1-k2).
# On an H200: `megamoe tune` of W4A16 at gpt-oss-120b / mixtral-8x7b T = 1 / 2 / 4 (both formats; the
#   H200's table has no split_small_deep entry), then `auto` shipped against the tune's cache, until 190 s.
# On an H100: the split GEMM and W4A16 suites of main's test binary (session 73's seeding refactor, not run
#   on a GPU since), then gpt-oss-120b w4a16_mxfp4 T = 1 / 2 under split_small_deep with FC1's K whole
#   against two parts (wip/fc1-k2's knob), two alternated rounds of `megamoe bench`.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_main73.txz} carried_job_start
cat "$R/gpu.txt"
P2=gpt-oss-120b,mixtral-8x7b
if grep -q H200 "$R/gpu.txt"; then
  tune_until w4_mx 50 --recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4
  tune_until w4_nv 95 --recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4
  merge_tune_caches "$R/tuned.json" "$R"/tune_*.json
  tuned_vs_shipped "${AB_END:-190}" 60 \
    "mx=--recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4 --iters 100" \
    "nv=--recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4 --iters 100"
else
  sharded_gpu_tests t 90 --gtest_filter='*Split*:*split*:W4A16.*'
  unpack_carry bld_fc1k2.txz /tmp/k2
  ab_variants "base=/tmp/k2/megamoe fc1k2=/tmp/k2/megamoe@MEGAMOE_W4A16_DEEP_FC1_SPLITS=2" 40 "${AB_END:-190}" \
    "mx=--recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1,2 --tactic split_small_deep --iters 100 --l2-flush read"
fi
echo "end $(el)s"
