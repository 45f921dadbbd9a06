#!/usr/bin/env bash
# V1: token tiles multicast over a 2-CTA cluster (MEGAMOE_FP8_TMA_CLUSTER=2): Fp8Gemm tests both ways, sanitizers, A/B.
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
X=$BN/megamoe
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
for c in 1 2; do
  MEGAMOE_FP8_TMA_CLUSTER=$c timeout 90 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm_c$c.log 2>&1
  echo "fp8 gemm tests cluster=$c rc=$?"; grep -E "FAILED|PASSED|Failure" $R/fp8gemm_c$c.log | head -8
done
ok=0; grep -q "PASSED" $R/fp8gemm_c2.log && ! grep -q "FAILED" $R/fp8gemm_c2.log && ok=1
if [ $ok = 1 ]; then
  export MEGAMOE_TACTIC_CACHE=off
  P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
  for rep in 1 2; do
    for c in 1 2; do
      for tac in split_tma split_tma_act; do
        MEGAMOE_FP8_TMA_CLUSTER=$c timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,2048,8192 --iters 50 --json $R/${tac}c${c}_fp8_r$rep.json > $R/${tac}c${c}_fp8_r$rep.log 2>&1
        echo "bench $tac c$c r$rep rc=$? $(( $(date +%s) - t0 ))s"
      done
    done
  done
  python3 scripts/ab_compare.py $R split_tmac1 split_tmac2 2>&1 | tail -16
  python3 scripts/ab_compare.py $R split_tma_actc1 split_tma_actc2 2>&1 | tail -16
  for tool in racecheck memcheck synccheck; do
    MEGAMOE_FP8_TMA_CLUSTER=2 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' > $R/san-$tool-c2.log 2>&1
    echo "$tool c2 rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED|Hazard" $R/san-$tool-c2.log | head -4
  done
fi
