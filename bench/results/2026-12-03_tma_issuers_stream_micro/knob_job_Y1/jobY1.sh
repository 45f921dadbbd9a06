#!/usr/bin/env bash
# Y1: the fp8 TMA kernel with two TMA-issuing warps (steps in turn) against one, same binary
# (MEGAMOE_FP8_TMA_ISSUERS=1|2); fp8 GEMM tests + fp8 every_tactic with 2; A/B forced split_tma.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
( ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; echo "build rc $? $(( $(date +%s) - t0 ))s" ) &
.snap/micro/rows3 > $R/rows3.txt 2>&1; echo "rows3 rc $?"
wait
for i in 2 1; do
  MEGAMOE_FP8_TMA_ISSUERS=$i timeout 90 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*:*fp8*every_tactic*:*Fp8*Tma*' > $R/tests_iss$i.log 2>&1
  echo "fp8 tests ISSUERS=$i rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/tests_iss$i.log | head -3
done
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for i in 1 2; do
    MEGAMOE_FP8_TMA_ISSUERS=$i timeout 100 $BN/megamoe bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $P --tokens 128,256,512,1024,2048,8192 --iters 50 --json $R/iss${i}_tma_r$rep.json > $R/iss${i}_tma_r$rep.log 2>&1
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
python3 scripts/ab_compare.py $R iss1 iss2
