#!/usr/bin/env bash
# Session 65, the last ~320 s of device time. Carry [".carry"]: bld.txz = wip/combine-chunk8 7849d4b (main
# 42591a6's GEMMs; its combine measured 1.000x against main's in run 1). On an H200 only: `megamoe tune`
# fp8_block at the two cells furthest from DeepGEMM's figures (deepseek-v3 T = 8192, mixtral-8x7b
# T = 2048), then `auto` with the shipped table against `auto` with the tune's cache, one round each.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
grep -q H200 "$R/gpu.txt" || { echo "not an H200: nothing to do"; exit 0; }
tune_until "fp8_ds" 90 --recipe fp8_block --presets deepseek-v3 --tokens 8192
tune_until "fp8_mx" 130 --recipe fp8_block --presets mixtral-8x7b --tokens 2048
merge_tune_caches "$R/tuned.json" "$R"/tune_fp8_*.json
tuned_vs_shipped 190 60 "ds=--recipe fp8_block --presets deepseek-v3 --tokens 8192 --iters 50" \
  "mx=--recipe fp8_block --presets mixtral-8x7b --tokens 2048 --iters 50"
echo "end $(el)s"
