#!/usr/bin/env bash
# U1: build, fp8 GEMM tests, A/B large vs tma (tokens-in-M), fp8 subset, sanitizers.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
X=$BN/megamoe
timeout 120 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm.log 2>&1
echo "fp8 gemm tests rc=$?"; grep -E "FAILED|PASSED|Failure|rel-L2|mismatch" $R/fp8gemm.log | head -30
if grep -q "PASSED" $R/fp8gemm.log && ! grep -q "FAILED" $R/fp8gemm.log; then
  export MEGAMOE_TACTIC_CACHE=off
  P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
  for rep in 1 2; do
    for t in large tma; do
      tac=split_large_tile; [ $t = tma ] && tac=split_tma
      timeout 150 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,512,2048,8192 --iters 50 --json $R/${t}_fp8_r$rep.json > $R/${t}_fp8_r$rep.log 2>&1
      echo "bench $t r$rep rc=$?"; grep -iE "error|mismatch" $R/${t}_fp8_r$rep.log | head -3
    done
  done
  MEGAMOE_FP8_FUSED_ACT=0 timeout 150 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $P --tokens 128,512,2048,8192 --iters 50 --json $R/tmanf_fp8_r1.json > $R/tmanf_fp8_r1.log 2>&1
  echo "bench tma no-fuse rc=$?"
  python3 scripts/ab_compare.py $R large tma 2>&1 | tail -30
  python3 scripts/ab_compare.py $R tmanf tma 2>&1 | tail -22
  F='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall'
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $R/san-$tool.log 2>&1
    echo "$tool rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED|Hazard" $R/san-$tool.log | head -5
  done
  t0=$(date +%s)
  timeout 200 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*Fp8*:*fp8*' > $R/fp8_tests.log 2>&1
  echo "fp8 subset rc=$? $(( $(date +%s) - t0 ))s"; tail -3 $R/fp8_tests.log; grep -B2 -A10 "Failure" $R/fp8_tests.log | head -30
fi
