#!/usr/bin/env bash
# Session 74, the first call. Carry [".carry", ".peers"] (.carry/bld_main73.txz: megamoe + megamoe_gpu_tests
# at 9c9fb4c, scripts/pack_carry.sh).
# On an H200 (the GPU of issues 14 / 15's targets; its table was last tuned for these cells in session 59
# (fp8_block T >= 2048) and has no split_small_deep entry):
#   1. `megamoe tune` W4A16 (both formats) on gpt-oss-120b / mixtral-8x7b T = 1 / 2 / 4, where FC2's grid
#      fits one CTA per SM (split_small_deep's cells; session 72's job 18);
#   2. `megamoe tune` fp8_block T = 2048 / 4096 / 8192 on the four presets (the H200's entries predate
#      sessions 60-61's activation epilogues; session 65's job1_tune.sh, H200 branch);
#   3. `auto` with the shipped table against `auto` with the merged tune caches, alternated.
#   ~550 s. The merged cache ($R/tuned.json) feeds job2_h200_state.sh (copy it into this folder).
# On an H100: session 72's job16_fc1_k2.sh (FC1's K in two parts under split_small_deep, ~150 s; its
# records in $OUT/job16_r.tgz), then the split GEMM and W4A16 suites of main's test binary (session 73
# moved their seeding into tests/common/test_seed.h; not run on a GPU since).
set -u
d=$(dirname "$0")
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$d/../2026-12-07_session72/job16_fc1_k2.sh"
  mv "$OUT/r.tgz" "$OUT/job16_r.tgz"
fi
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_main73.txz} carried_job_start
cat "$R/gpu.txt"
if ! grep -q H200 "$R/gpu.txt"; then
  sharded_gpu_tests t 90 --gtest_filter='*Split*:*split*:W4A16.*'
  echo "end $(el)s"; exit 0
fi
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
P2=gpt-oss-120b,mixtral-8x7b
tune_until w4_mx 50 --recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4
tune_until w4_nv 95 --recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4
# fp8_block: the cells furthest from the targets first (deepseek-v3 T = 8192 at 59.4% of the FP8 rate and
# behind DeepGEMM's figure, mixtral-8x7b T >= 2048 behind DeepGEMM's), then qwen3-30b-a3b / gpt-oss-120b.
for p in deepseek-v3 mixtral-8x7b qwen3-30b-a3b gpt-oss-120b; do
  tune_until "f8_$p" "${TUNE_END:-370}" --recipe fp8_block --presets $p --tokens 2048,4096,8192
done
merge_tune_caches "$R/tuned.json" "$R"/tune_*.json
tuned_vs_shipped "${AB_END:-540}" 120 \
  "mx=--recipe w4a16_mxfp4 --presets $P2 --tokens 1,2,4 --iters 100" \
  "nv=--recipe w4a16_nvfp4 --presets $P2 --tokens 1,2,4 --iters 100" \
  "f8=--recipe fp8_block --presets $P --tokens 2048,4096,8192 --iters 50"
echo "end $(el)s"
