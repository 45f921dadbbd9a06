#!/usr/bin/env bash
# V3: the 2-CTA multicast with CTA-scope remote arrivals, against the base build (HEAD); SASS spill sites.
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/basetree && tar cf - --exclude=./build-dn --exclude=./build-db --exclude=./.git . | tar xf - -C /tmp/basetree
(cd /tmp/basetree && patch -R -p1 < .snap/mine.patch > /dev/null && echo "base tree ok")
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; echo "build new rc $? $(( $(date +%s) - t0 ))s"
cmake -S /tmp/basetree -B /tmp/build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_TESTS=OFF ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
ninja -C /tmp/build-base -j16 megamoe_cli > $R/build_base.log 2>&1; echo "build base rc $? $(( $(date +%s) - t0 ))s"
MEGAMOE_FP8_TMA_CLUSTER=2 timeout 90 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm_c2.log 2>&1
echo "fp8 gemm tests cluster=2 rc=$?"; grep -E "FAILED|PASSED|Failure" $R/fp8gemm_c2.log | head -8
O=$(find $BN -name 'grouped_gemm_fp8_tma.cu.o' | head -1)
cuobjdump -sass $O > $R/tma.sass 2>&1; echo "sass lines $(wc -l < $R/tma.sass)"
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base k1 k2; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    c=1; [ $v = k2 ] && c=2
    for tac in split_tma split_tma_act; do
      MEGAMOE_FP8_TMA_CLUSTER=$c timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,2048,8192 --iters 50 --json $R/${v}${tac}_fp8_r$rep.json > $R/${v}${tac}_fp8_r$rep.log 2>&1
      echo "bench $v $tac r$rep rc=$? $(( $(date +%s) - t0 ))s"
    done
  done
done
for tac in split_tma split_tma_act; do for v in k1 k2; do echo "=== $tac base vs $v"; python3 scripts/ab_compare.py $R base$tac $v$tac 2>&1 | tail -14; done; done
