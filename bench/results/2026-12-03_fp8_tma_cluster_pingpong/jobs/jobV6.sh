#!/usr/bin/env bash
# V6: fp8 TMA kernel with warp-uniform descriptors (warpgroup index and stage index through __shfl_sync: QGMMA descriptors in uniform registers, no R2UR) and the step's scales read before the wgmma wait; A/B against 0a49e71's kernel (HEAD, built in the same job).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
t0=$(date +%s)
mkdir -p /tmp/basetree && tar cf - --exclude=./build-dn --exclude=./build-db --exclude=./.git . | tar xf - -C /tmp/basetree
(cd /tmp/basetree && patch -R -p1 < .snap/mine.patch > /dev/null && echo "base tree ok")
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; rc=$?
echo "build new rc $rc $(( $(date +%s) - t0 ))s"
[ $rc != 0 ] && { grep -B3 -A20 "error" $R/build.log | head -40; exit 1; }
timeout 40 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm.log 2>&1; rc=$?
echo "Fp8Gemm rc=$rc"; grep -E "FAILED|PASSED" $R/fp8gemm.log | head -3
[ $rc != 0 ] && exit 1
cmake -S /tmp/basetree -B /tmp/build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_TESTS=OFF ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
ninja -C /tmp/build-base -j16 megamoe_cli > $R/build_base.log 2>&1; echo "build base rc $? $(( $(date +%s) - t0 ))s"
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base new; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    for tac in split_tma split_tma_act; do
      timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,2048,8192 --iters 50 --json $R/${v}${tac}_fp8_r$rep.json > $R/${v}${tac}_fp8_r$rep.log 2>&1
    done
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
for tac in split_tma split_tma_act; do echo "=== $tac base vs new"; python3 scripts/ab_compare.py $R base$tac new$tac 2>&1 | grep -A14 "== fp8$"; done
for tool in racecheck synccheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' > $R/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" $R/san-$tool.log | head -2
done
timeout 100 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*Fp8*:*fp8*' > $R/fp8_tests.log 2>&1
echo "fp8 GPU tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/fp8_tests.log | head -4
