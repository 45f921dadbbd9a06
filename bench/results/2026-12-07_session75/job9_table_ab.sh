#!/usr/bin/env bash
# Session 75: the shipped table with the H100 entry bf16 deepseek-v3 T = 1 -> split_tma_small (call 8's
# tune 1.036x, its cache A/B 1.035x) built into the binary (.carry/bld_table75.txz) against main's
# binary before it (.carry/bld_main73.txz), `auto`, two alternated rounds; the other cells are controls
# whose tactic did not change. Carry [".carry"].
set -u
source scripts/device_env.sh
CARRY_BLD=bld_table75.txz carried_job_start
unpack_carry bld_main73.txz /tmp/old
cat "$R/gpu.txt"
ab_variants "old=/tmp/old/megamoe new=$B/megamoe" 60 "${AB_END:-200}" \
  "b16=--recipe bf16 --presets deepseek-v3,mixtral-8x7b,gpt-oss-120b --tokens 1,2 --iters 100" \
  "f8=--recipe fp8_block --presets qwen3-30b-a3b,deepseek-v3 --tokens 1,4 --iters 100"
ab_tactics new
echo "end $(el)s"
