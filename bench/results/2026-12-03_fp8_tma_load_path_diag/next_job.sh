#!/usr/bin/env bash
# Written 2026-12-03 (session 30), not run. What the fp8 TMA kernel's step without MMAs and token
# tiles (`nmt`, ~0.45 us at mixtral-8x7b T = 8192, L2 at 48%) waits for. Three builds of one tree with
# diag_macros_v2.patch applied (the macros of ../2026-12-03_tma_kernels_no_mma_diag/ plus two; wrong
# results by design, timing only):
#   nmt   MEGAMOE_DIAG_NO_TOKENS + MEGAMOE_DIAG_NO_MMA (as measured before)
#   nmts  + MEGAMOE_DIAG_NO_SCALES: the scale warp copies nothing (one plain arrival per lane)
#   nmtd  + MEGAMOE_DIAG_DEEP: no token tile reserved, 12 stages of 16 KiB (twice the weight bytes in flight)
# Reading: nmtd ~2x faster per step -> the refill round trip (latency) bounds it; nmts much faster ->
# the scale copies' path does; neither -> something per step on the consumer or producer path.
# Run from the repository root on a clean tree.
set -u
git apply bench/results/2026-12-03_fp8_tma_load_path_diag/diag_macros_v2.patch || { echo "patch failed"; exit 1; }
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} -DMEGAMOE_BUILD_TESTS=OFF"
M=MEGAMOE_DIAG_NO_TOKENS,MEGAMOE_DIAG_NO_MMA
declare -A FLAGS=([nmt]=$M [nmts]=$M,MEGAMOE_DIAG_NO_SCALES [nmtd]=$M,MEGAMOE_DIAG_DEEP)
for v in nmt nmts nmtd; do
  MEGAMOE_CMAKE_ARGS="$NC -DCMAKE_CUDA_FLAGS=-D${FLAGS[$v]}" JOBS=5 scripts/device_build.sh /tmp/build-$v megamoe_cli \
    > $R/${v}_build.log 2>&1 &
done
wait
for v in nmt nmts nmtd; do [ -x /tmp/build-$v/megamoe ] || { echo "$v build failed"; tail -n 20 /tmp/build-$v.build.log; exit 1; }; done
echo "builds $(( $(date +%s) - t0 ))s"
export MEGAMOE_TACTIC_CACHE=off
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets deepseek-v3,mixtral-8x7b --tokens 2048,8192 --iters 50"
for rep in 1 2; do
  for v in nmt nmts nmtd; do
    timeout 60 /tmp/build-$v/megamoe bench $C --json $R/${v}_fc_r$rep.json > $R/${v}_fc_r$rep.log 2>&1 || echo "$v r$rep rc=$?"
  done
  echo "r$rep $(( $(date +%s) - t0 ))s"
done
echo "=== no scale copies"; python3 scripts/ab_compare.py $R nmt nmts
echo "=== 12 stages"; python3 scripts/ab_compare.py $R nmt nmtd
echo "end $(( $(date +%s) - t0 ))s"
