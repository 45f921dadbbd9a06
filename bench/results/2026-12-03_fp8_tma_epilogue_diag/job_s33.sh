#!/usr/bin/env bash
# 2026-12-03 (session 33): first call of the session, on a bare H200. Both prepared studies' patches
# applied to one tree (act_large_fc2.patch adds a tactic; no_store.patch only acts under
# -DMEGAMOE_DIAG_NO_STORE), two builds in parallel (8 cores each):
#   build-dn             megamoe_cli + megamoe_gpu_tests, plain macros (the "base" of the diagnosis)
#   /tmp/build-nostore   megamoe_cli with -DMEGAMOE_DIAG_NO_STORE (store_d skips its stores)
# Then the whole GPU suite (among them the misaligned-scale TMA case and the new tactic's
# every_tactic cases) and the epilogue diagnosis of job.sh (base vs nostore, split_tma and
# split_tma_act, T = 2048, 8192, alternated, best of two). act_large_fc2/job_s33.sh runs next on the
# warm machine (it reuses build-dn).
# Run from the repository root: bash bench/results/2026-12-03_fp8_tma_epilogue_diag/job_s33.sh
set -u
git apply bench/results/2026-12-03_fp8_tma_act_large_fc2/act_large_fc2.patch || { echo "patch 1 failed"; exit 1; }
git apply bench/results/2026-12-03_fp8_tma_epilogue_diag/no_store.patch || { echo "patch 2 failed"; exit 1; }
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt" 2>&1
t0=$(date +%s)
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}"
MEGAMOE_CMAKE_ARGS="$NC" JOBS=8 scripts/device_build.sh "$BN" megamoe_cli megamoe_gpu_tests > "$R/build_dn.log" 2>&1 &
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMEGAMOE_DIAG_NO_STORE" JOBS=8 \
  scripts/device_build.sh /tmp/build-nostore megamoe_cli > "$R/build_nostore.log" 2>&1 &
wait
for b in "$BN" /tmp/build-nostore; do
  [ -x "$b/megamoe" ] || { echo "$b failed"; tail -n 30 "$b.build.log"; exit 1; }
done
[ -x "$BN/megamoe_gpu_tests" ] || { echo "gpu tests failed to build"; tail -n 30 "$BN.build.log"; exit 1; }
echo "builds $(( $(date +%s) - t0 ))s"
timeout 240 "$BN/megamoe_gpu_tests" --gtest_brief=1 > "$R/gpu_tests.log" 2>&1
echo "gpu suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests ran" "$R/gpu_tests.log" | head -20
grep -E "misalign|Misalign" "$R/gpu_tests.log" | head -3
export MEGAMOE_TACTIC_CACHE=off
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 2048,8192 --iters 50"
declare -A BIN=([base]="$BN/megamoe" [nostore]=/tmp/build-nostore/megamoe)
for rep in 1 2; do
  for v in base nostore; do
    for t in split_tma split_tma_act; do
      timeout 60 "${BIN[$v]}" bench $C --tactic $t --json "$R/${v}_${t}_r$rep.json" > "$R/${v}_${t}_r$rep.log" 2>&1 \
        || echo "$v $t r$rep rc=$?"
    done
  done
  echo "r$rep $(( $(date +%s) - t0 ))s"
done
echo "=== without store_d's stores (split_tma: FC1 fp32 D and FC2 bf16 D; split_tma_act: FC2 only)"
python3 scripts/ab_compare.py "$R" base nostore
echo "end $(( $(date +%s) - t0 ))s"
