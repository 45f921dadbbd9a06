#!/usr/bin/env bash
# Session 72: the H200's entries for split_small_deep (its table has none): on an H200, job 14's tune
# (both fp4 formats, gpt-oss-120b / mixtral-8x7b, T = 1 / 2 / 4) and `auto` shipped against the tune's
# cache; on an H100 nothing (job 14 measured it there). Carry [".carry"] (.carry/bld_main72.txz).
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_main72.txz} carried_job_start
cat "$R/gpu.txt"
grep -q H200 "$R/gpu.txt" || { echo "not an H200: nothing to do"; exit 0; }
JB=${JB:-150}
P2=gpt-oss-120b,mixtral-8x7b
tune_until mx 40 --recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4
tune_until nv 80 --recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4
merge_tune_caches "$R/tuned.json" "$R/tune_mx.json" "$R/tune_nv.json"
tuned_vs_shipped $((JB - 5)) 40 "mx=--recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4 --iters 100" \
  "nv=--recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4 --iters 100"
echo "end $(el)s"
