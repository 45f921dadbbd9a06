#!/usr/bin/env bash
# Device job T7: the shipped fp8 TMA tactic (384 threads, passes of up to 128 tokens): whole GPU suite,
# sanitizers, and the three fp8 split tactics forced, T = 128..8192, four presets.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_new.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build_new.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build_new.log | head -60; exit 1; fi
X=$BN/megamoe
t0=$(date +%s)
timeout 240 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(( $(date +%s) - t0 ))s"; tail -2 $R/gpu_tests.log; grep -B2 -A10 "Failure" $R/gpu_tests.log | head -30
grep -E "fp8_tma" $R/gpu_tests.log | head -8
F='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.BothTacticsMatchFloat64Product'
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $R/san-$tool.log 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED|Hazard" $R/san-$tool.log | head -4
done
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for t in large tma swap; do
    tac=split_large_tile; [ $t = tma ] && tac=split_tma; [ $t = swap ] && tac=split_swap_ab
    timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,512,2048,8192 --iters 50 --json $R/${t}_fp8_r$rep.json > $R/${t}_fp8_r$rep.log 2>&1
    echo "bench $t r$rep rc=$?"
  done
done
python3 scripts/ab_compare.py $R large tma 2>&1 | tail -18
python3 scripts/ab_compare.py $R swap tma 2>&1 | tail -18
