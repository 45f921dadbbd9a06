#!/usr/bin/env bash
# X2: the fp8 64x128 ping-pong large tile (`split_large_m64`): fp8 GEMM tests and the fp8
# conformance cases (every_tactic runs it end to end), sanitizers on the GEMM tests, forced
# split_large_tile vs split_large_m64 at T = 512..8192 (uniform routing; m64 also balanced),
# then `megamoe tune` of fp8_block T = 512..8192.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; echo "build rc $? $(( $(date +%s) - t0 ))s"; grep -i " error" $R/build.log | head -3
timeout 200 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*:Fp8Block.*:*fp8*every_tactic*' > $R/tests_fp8.log 2>&1; rc=$?
echo "fp8 tests rc=$rc $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran|FAILED" $R/tests_fp8.log | head -8
grep "fp8_large_tile_64" $R/tests_fp8.log | head -4
[ $rc != 0 ] && exit 1
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  [ $rep = 2 ] && [ $(( $(date +%s) - t0 )) -gt 200 ] && break
  for tac in split_large_tile split_large_m64; do
    timeout 100 $BN/megamoe bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 1024,2048,8192 --iters 50 --json $R/${tac}_fp8_r$rep.json > $R/${tac}_fp8_r$rep.log 2>&1
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
timeout 100 $BN/megamoe bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_large_m64 --routing balanced --presets $P --tokens 2048,8192 --iters 50 --json $R/m64_balanced.json > $R/m64_balanced.log 2>&1
python3 scripts/ab_compare.py $R split_large_tile split_large_m64
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.BothTacticsMatchFloat64Product' > $R/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" $R/san-$tool.log | head -2
done
unset MEGAMOE_TACTIC_CACHE
[ $(( $(date +%s) - t0 )) -gt 300 ] && exit 0
timeout 120 $BN/megamoe tune --recipe fp8_block --presets $P --tokens 1024,2048,4096,8192 --iters 30 --cache $R/tune_fp8.json > $R/tune_fp8.txt 2>&1
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -30 $R/tune_fp8.txt
