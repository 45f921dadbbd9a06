#!/usr/bin/env bash
# Device job D: fp8 large tile with 2x1 clusters (TMA multicast of the weights) against c83524e.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
mkdir -p /tmp/base && tar xzf .snap/base.tgz -C /tmp/base && ln -sfn $ROOT/.deps /tmp/base/.deps
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_new.log 2>&1
cmake -S /tmp/base -B $BB -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
(ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build_new.log 2>&1; echo $? > /tmp/new.rc) &
(ninja -C $BB -j10 megamoe_cli > $R/build_base.log 2>&1; echo $? > /tmp/base.rc) &
wait
echo "build $(( $(date +%s) - t0 ))s new rc $(cat /tmp/new.rc) base rc $(cat /tmp/base.rc)"
if [ "$(cat /tmp/new.rc)" != 0 ]; then grep -B3 -A20 "error" $R/build_new.log | head -60; exit 1; fi
timeout 120 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8*:*fp8*' > $R/fp8_tests.log 2>&1
echo "fp8 tests rc=$?"; tail -2 $R/fp8_tests.log; grep -B2 -A8 "Failure" $R/fp8_tests.log | head -30
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for b in base new; do
    X=$BB/megamoe; [ $b = new ] && X=$BN/megamoe
    timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --tokens 512,2048,4096,8192 --iters 50 --json $R/${b}_split_r$rep.json > $R/${b}_split_r$rep.log 2>&1
  done
done
python3 scripts/ab_compare.py $R base new > $R/ab.txt 2>&1; tail -22 $R/ab.txt
timeout 200 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$?"; tail -2 $R/gpu_tests.log
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall' > $R/san-racecheck.log 2>&1
echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|PASSED" $R/san-racecheck.log | head -2
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall' > $R/san-memcheck.log 2>&1
echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED" $R/san-memcheck.log | head -2
