#!/usr/bin/env bash
# W4A16 TMA tactic: decoder units dealt out in turn over the steps (balanced_decoders.patch, applied in
# the working tree; base = the tree with it reversed) and a diagnosis build without the decode
# (MEGAMOE_DIAG_W4A16_NO_DECODE: wrong results by design) - how much of a step the decode costs.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
source scripts/device_env.sh
t0=$(date +%s)
P=bench/results/2026-12-03_w4a16_tma_balanced_decoders/balanced_decoders.patch
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}"
MEGAMOE_AB_CMAKE_ARGS="$NC" JOBS=12 scripts/ab_build.sh $P $BN /tmp/build-base megamoe_gpu_tests > $R/ab_build.log 2>&1 &
MEGAMOE_CMAKE_ARGS="$NC -DCMAKE_CUDA_FLAGS=-DMEGAMOE_DIAG_W4A16_NO_DECODE -DMEGAMOE_BUILD_TESTS=OFF" JOBS=5 \
  scripts/device_build.sh /tmp/build-diag megamoe_cli > $R/diag_build.log 2>&1 &
wait
echo "builds $(( $(date +%s) - t0 ))s"; tail -3 $R/ab_build.log $R/diag_build.log
ls $BN/megamoe /tmp/build-base/megamoe /tmp/build-diag/megamoe || exit 1
timeout 150 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16*:*mxfp4*:*nvfp4*' > $R/tests_w4a16.log 2>&1
echo "W4A16 tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/tests_w4a16.log | head -8
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base new diag; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe; [ $v = diag ] && X=/tmp/build-diag/megamoe
    [ $(( $(date +%s) - t0 )) -gt 520 ] && break 2
    timeout 70 $X bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $PR \
      --tokens 2048,4096,8192 --iters 50 --json $R/${v}_mx_r$rep.json > $R/${v}_mx_r$rep.log 2>&1
    echo "$v r$rep rc=$? $(( $(date +%s) - t0 ))s"
  done
done
python3 scripts/ab_compare.py $R base new
python3 scripts/ab_compare.py $R base diag
echo "end $(( $(date +%s) - t0 ))s"
