#!/usr/bin/env bash
# Session 53: where W4A16 loses to bf16 at large T, per kernel (ktrace; scripts/ktrace/trace.sh):
# `auto` bf16 / w4a16_mxfp4 / w4a16_nvfp4 at T = 8192 on qwen3-30b-a3b, gpt-oss-120b, mixtral-8x7b
# (the presets over issue 15's 1.05x target in run1), then qwen3-30b-a3b mxfp4 with each large tactic
# forced. Carry [".carry"] (.carry/bld.txz from scripts/pack_carry.sh). ~150 s.
set -u
source scripts/device_env.sh
carried_job_start
for p in qwen3-30b-a3b gpt-oss-120b mixtral-8x7b; do
  for r in bf16 w4a16_mxfp4 w4a16_nvfp4; do
    ktrace_bench "${r}_${p}_8192" -- --recipe $r --presets $p --tokens 8192
  done
done
for tac in split_large_tma split_large_tma_fc1 split_large_tma_fc2 split_large; do
  MEGAMOE_TACTIC_CACHE=off ktrace_bench "mxfp4_qwen3_${tac}" -- --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split \
    --tactic $tac --presets qwen3-30b-a3b --tokens 8192
done
echo "end $(el)s"
