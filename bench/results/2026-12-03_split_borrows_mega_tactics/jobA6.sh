#!/usr/bin/env bash
# A6: split backends borrow the Mega backend's tactic entry: the GPU tactic tests, and the fp8 split
# backend's tactic at mixtral-8x7b T = 256 / qwen3-30b-a3b T = 1024 (shipped table).
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build.log 2>&1 || { echo build failed; grep -A10 error $R/build.log | head -30; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
timeout 60 $BN/megamoe_gpu_tests --gtest_filter='TacticCacheGpu.*' > $R/tactics_gpu.log 2>&1
echo "tactic tests rc=$?"; grep -E "OK \]|FAILED|PASSED|Failure" -A3 $R/tactics_gpu.log | head -20
for pt in mixtral-8x7b:256 qwen3-30b-a3b:1024; do
  timeout 40 $BN/megamoe bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets ${pt%%:*} --tokens ${pt##*:} --iters 50 --json $R/split_${pt%%:*}.json > $R/split_${pt%%:*}.log 2>&1
  echo "bench $pt rc=$?"; grep -E "tactic|ms" $R/split_${pt%%:*}.log | tail -3
done
echo "end $(( $(date +%s) - t0 ))s"
