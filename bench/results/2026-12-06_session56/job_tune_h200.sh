#!/usr/bin/env bash
# Session 56: `megamoe tune` on the H200 of the large buckets. The H200's entries at T = 2048..8192 are
# older than our bf16 large-T GEMM's dynamic tile order (session 47), staged epilogue (51/52), pass
# groups and 320-row passes (52), and fp8_block's / W4A16's staged epilogues (52): on the H100 the
# same kind of tune (session 53) found our GEMM 1.04-1.10x faster than the CUTLASS tile the H200's
# table keeps at deepseek-v3 T = 8192. Buckets 2048..8192 for bf16 and fp8_block on the four presets,
# then W4A16 at 4096 / 8192 while time is left. Merged with scripts/merge_tune.py --min-gain 0.02, then
# checked by an `auto` A/B (job_ab_h200.sh). Carry [".carry"]. Ends by ~565 s.
set -u
source scripts/device_env.sh
carried_job_start
for r in bf16 fp8_block; do
  for p in deepseek-v3 qwen3-30b-a3b gpt-oss-120b mixtral-8x7b; do
    [ $r = fp8_block ] && d=420 || d=240
    tune_until "${r}_$p" $d --recipe $r --presets $p --tokens 2048,4096,8192
  done
done
for r in w4a16_mxfp4 w4a16_nvfp4; do
  tune_until "${r}_8192" 565 --recipe $r --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 4096,8192
done
echo "end $(el)s"
