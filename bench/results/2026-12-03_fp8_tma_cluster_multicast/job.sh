#!/usr/bin/env bash
# A/B of the fp8 TMA kernel in clusters of two CTAs with the token boxes multicast (2026-12-03,
# session 30). Run from the repository root with the change in the working tree (new);
# ab_build.sh builds the base with cluster_multicast.patch reversed. Correctness (every fp8 GPU
# test; racecheck / memcheck / synccheck on the small fp8 GEMM tests), then the forced-tactic A/B,
# base and new alternated, best of two.
set -u
source .snap/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
P=bench/results/2026-12-03_fp8_tma_cluster_multicast/cluster_multicast.patch
MEGAMOE_AB_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" JOBS=16 \
  scripts/ab_build.sh $P $BN /tmp/build-base megamoe_gpu_tests > $R/ab_build.log 2>&1 || { tail -n 30 $R/ab_build.log $BN.build.log; exit 1; }
echo "builds $(( $(date +%s) - t0 ))s"
timeout 150 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8*:*fp8*' > $R/tests.log 2>&1
echo "fp8 tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $R/tests.log | head -12
SMALL='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall'
for tool in racecheck memcheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$SMALL" > $R/san_$tool.log 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $R/san_$tool.log | head -3
done
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_bench.sh $R /tmp/build-base/megamoe $BN/megamoe 2 $t0 370 \
  "split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50" \
  "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50"
echo "end $(( $(date +%s) - t0 ))s"
