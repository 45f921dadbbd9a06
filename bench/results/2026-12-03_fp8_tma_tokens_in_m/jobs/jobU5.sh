#!/usr/bin/env bash
# U5: the K loop with pipelined 64-column halves (MEGAMOE_FP8_TMA_HALVES=1): Fp8Gemm tests, racecheck, A/B vs the shipped loop.
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
X=$BN/megamoe
MEGAMOE_FP8_TMA_HALVES=1 timeout 60 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm_halves.log 2>&1
echo "fp8 gemm tests (halves) rc=$?"; grep -E "fp8_tma|FAILED|PASSED|Failure" $R/fp8gemm_halves.log | head -12
if grep -q "PASSED" $R/fp8gemm_halves.log && ! grep -q "FAILED" $R/fp8gemm_halves.log; then
  export MEGAMOE_TACTIC_CACHE=off
  P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
  for rep in 1 2; do
    for t in loop halves; do
      h=0; [ $t = halves ] && h=1
      MEGAMOE_FP8_TMA_HALVES=$h timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $P --tokens 128,2048,8192 --iters 50 --json $R/${t}_fp8_r$rep.json > $R/${t}_fp8_r$rep.log 2>&1
      echo "bench $t r$rep rc=$?"
    done
  done
  python3 scripts/ab_compare.py $R loop halves 2>&1 | tail -16
  MEGAMOE_FP8_TMA_HALVES=1 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall' > $R/san-racecheck-halves.log 2>&1
  echo "racecheck halves rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED|Hazard" $R/san-racecheck-halves.log | head -4
fi
