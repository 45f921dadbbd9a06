#!/usr/bin/env bash
# Device job A: build base (c83524e) and new, the whole GPU test binary, multigpu tests with one rank.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
mkdir -p /tmp/base && tar xzf .snap/base.tgz -C /tmp/base && ln -sfn $ROOT/.deps /tmp/base/.deps
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_new.log 2>&1
cmake -S /tmp/base -B $BB -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
(ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli megamoe_multigpu_tests > $R/build_new.log 2>&1; echo $? > /tmp/new.rc) &
(ninja -C $BB -j10 megamoe_cli > $R/build_base.log 2>&1; echo $? > /tmp/base.rc) &
wait
echo "build $(( $(date +%s) - t0 ))s new rc $(cat /tmp/new.rc) base rc $(cat /tmp/base.rc)"
if [ "$(cat /tmp/new.rc)" != 0 ]; then grep -B3 -A20 "error" $R/build_new.log | head -60; exit 1; fi
t0=$(date +%s)
timeout 300 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(( $(date +%s) - t0 ))s"; tail -3 $R/gpu_tests.log; grep -B2 -A10 "Failure" $R/gpu_tests.log | head -60
MEGAMOE_EP_RANKS=1 timeout 100 $BN/megamoe_multigpu_tests > $R/multigpu_r1.log 2>&1
echo "multigpu (1 rank) rc=$?"; grep -E "PASSED|FAILED|tests ran" $R/multigpu_r1.log | head -5
F='Fp8Gemm.ActEpilogueMatchesFloat64ProductSmall:Fp8Quant.QuantizeAMatchesCpu:Fp8Block.PartialBlocksSmall'
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $R/san-$tool.log 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $R/san-$tool.log | head -3
done
