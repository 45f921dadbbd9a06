#!/usr/bin/env bash
# Device job T8: the fp8 TMA tactic with the sw * sa promotion again: fp8 tests, racecheck, A/B vs the large tile.
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_new.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build_new.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build_new.log | head -60; exit 1; fi
X=$BN/megamoe
timeout 100 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*Fp8*:*fp8*' > $R/gpu_tests_fp8.log 2>&1
echo "fp8 gpu tests rc=$?"; tail -2 $R/gpu_tests_fp8.log; grep -B2 -A10 "Failure" $R/gpu_tests_fp8.log | head -20
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter=Fp8Gemm.PartialBlocksSmall > $R/san-racecheck.log 2>&1
echo "racecheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED|Hazard" $R/san-racecheck.log | head -3
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for t in large tma; do
  tac=split_large_tile; [ $t = tma ] && tac=split_tma
  timeout 60 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,2048,8192 --iters 50 --json $R/${t}_fp8_r1.json > $R/${t}_fp8_r1.log 2>&1
  echo "bench $t rc=$?"
done
python3 scripts/ab_compare.py $R large tma 2>&1 | tail -14
