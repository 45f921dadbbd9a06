#!/usr/bin/env bash
# Written 2026-12-03 (session 32), not run. How much of the fp8 TMA kernel's time its epilogue's
# direct global stores take (store_d: fp32 D for split_tma's FC1, bf16 D for both tactics' FC2;
# each warp writes 8 rows x 16-32 bytes per instruction, and the MMAs wait meanwhile). Two builds of
# one tree, no tests (wrong results by design, timing only):
#   base     the tree as committed
#   nostore  no_store.patch with -DMEGAMOE_DIAG_NO_STORE: store_d keeps its values live but skips
#            the store (quantize_store, split_tma_act's FC1 epilogue, unchanged)
# Then split_tma and split_tma_act on the four presets at T = 2048, 8192, alternated, best of two.
# Reading: split_tma much faster without stores -> an asynchronous epilogue (shared memory + TMA
# store, overlapped with the next tile) is worth building; split_tma_act's gain is FC2's share.
# Run from the repository root on a clean tree: bash bench/results/2026-12-03_fp8_tma_epilogue_diag/job.sh
set -u
git apply bench/results/2026-12-03_fp8_tma_epilogue_diag/no_store.patch || { echo "patch failed"; exit 1; }
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
scripts/diag_builds.sh base= nostore=MEGAMOE_DIAG_NO_STORE || exit 1
echo "builds $(( $(date +%s) - t0 ))s"
export MEGAMOE_TACTIC_CACHE=off
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 2048,8192 --iters 50"
for rep in 1 2; do
  for v in base nostore; do
    for t in split_tma split_tma_act; do
      timeout 60 /tmp/build-$v/megamoe bench $C --tactic $t --json $R/${v}_${t}_r$rep.json > $R/${v}_${t}_r$rep.log 2>&1 \
        || echo "$v $t r$rep rc=$?"
    done
  done
  echo "r$rep $(( $(date +%s) - t0 ))s"
done
echo "=== without store_d's stores (split_tma: FC1 fp32 D and FC2 bf16 D; split_tma_act: FC2 only)"
python3 scripts/ab_compare.py $R base nostore
echo "end $(( $(date +%s) - t0 ))s"
