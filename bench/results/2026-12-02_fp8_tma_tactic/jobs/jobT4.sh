#!/usr/bin/env bash
# Device job T4: the fp8 TMA tactic with the warpgroups' MMA turns (MEGAMOE_FP8_TMA_ORDER 0/1/2).
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_new.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build_new.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build_new.log | head -60; exit 1; fi
X=$BN/megamoe
for o in 1 2; do
  MEGAMOE_FP8_TMA_ORDER=$o timeout 120 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm_o$o.log 2>&1
  echo "order $o fp8 gemm tests rc=$?"; grep -E "FAILED|PASSED" $R/fp8gemm_o$o.log | head -5
done
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for o in 0 1 2; do
    MEGAMOE_FP8_TMA_ORDER=$o timeout 150 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $P --tokens 512,2048,8192 --iters 50 --json $R/o${o}_fp8_r$rep.json > $R/o${o}_fp8_r$rep.log 2>&1
    echo "bench o$o r$rep rc=$?"
  done
done
python3 scripts/ab_compare.py $R o0 o1 2>&1 | tail -16
python3 scripts/ab_compare.py $R o0 o2 2>&1 | tail -16
