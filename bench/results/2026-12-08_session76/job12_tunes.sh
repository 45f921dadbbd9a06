#!/usr/bin/env bash
# Session 76's tune call, on whichever card comes. Carry [".carry", ".peers"] (.carry/bld_table75.txz:
# main's library, scripts/pack_carry.sh).
# On an H200: session 74's job 1 as it stands (W4A16 split_small_deep tune at gpt-oss-120b / mixtral-8x7b
# T = 1 / 2 / 4, fp8_block tune T = 2048..8192 on the four presets, `auto` shipped against the merged
# caches; ~550 s).
# On an H100 (whose W4A16 T <= 4 cells session 72 / 75 tuned, and whose fp8_block T >= 2048 entries come
# from session 60, before session 61's activation epilogues): the fp8_block part only, then the A/B.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_table75.txz} carried_job_start
cat "$R/gpu.txt"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
P2=gpt-oss-120b,mixtral-8x7b
AB=()
if grep -q H200 "$R/gpu.txt"; then
  tune_until w4_mx 50 --recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4
  tune_until w4_nv 95 --recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4
  AB=("mx=--recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4 --iters 100"
      "nv=--recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4 --iters 100")
fi
# fp8_block: the cells furthest from the targets first (deepseek-v3 T = 8192, mixtral-8x7b T >= 2048:
# behind DeepGEMM's figures), then qwen3-30b-a3b / gpt-oss-120b.
for p in deepseek-v3 mixtral-8x7b qwen3-30b-a3b gpt-oss-120b; do
  tune_until "f8_$p" "${TUNE_END:-370}" --recipe fp8_block --presets $p --tokens 2048,4096,8192
done
merge_tune_caches "$R/tuned.json" "$R"/tune_*.json
tuned_vs_shipped "${AB_END:-540}" 120 "${AB[@]}" \
  "f8=--recipe fp8_block --presets $P --tokens 2048,4096,8192 --iters 50"
echo "end $(el)s"
