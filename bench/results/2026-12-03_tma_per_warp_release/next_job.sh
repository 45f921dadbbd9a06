#!/usr/bin/env bash
# For the next device job (not run yet). Run from the repository root after
#   git apply bench/results/2026-12-03_tma_per_warp_release/per_warp_release.patch
# ab_build builds the base with the patch reversed. Correctness (fp8 + W4A16 GPU tests, racecheck /
# memcheck / synccheck on the small GEMM tests: the release is now one arrival per warp after a
# __syncwarp, which racecheck may not credit), then the forced tactics A/B, alternated, best of two.
set -u
source .snap/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
P=bench/results/2026-12-03_tma_per_warp_release/per_warp_release.patch
MEGAMOE_AB_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" JOBS=16 \
  scripts/ab_build.sh $P $BN /tmp/build-base megamoe_gpu_tests > $R/ab_build.log 2>&1 || { tail -n 20 $R/ab_build.log; exit 1; }
echo "builds $(( $(date +%s) - t0 ))s"
timeout 150 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8*:*fp8*:W4A16*:*mxfp4*:*nvfp4*' > $R/tests.log 2>&1
echo "fp8 + W4A16 tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED" $R/tests.log | head -8
SMALL='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:W4A16.GemmTacticsMatchCpu:W4A16.ActivationEpilogue*'
for tool in racecheck memcheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$SMALL" > $R/san_$tool.log 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $R/san_$tool.log | head -3
done
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_bench.sh $R /tmp/build-base/megamoe $BN/megamoe 2 $t0 520 \
  "split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50" \
  "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50" \
  "mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $PR --tokens 2048,8192 --iters 50"
echo "end $(( $(date +%s) - t0 ))s"
