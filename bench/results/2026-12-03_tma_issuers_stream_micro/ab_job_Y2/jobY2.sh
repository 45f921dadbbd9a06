#!/usr/bin/env bash
# Y2: the fp8 TMA kernel with two TMA warps (steps in turn) and 128-row boxes where one box covers
# two 64-row ones, against HEAD (base tree = this tree with .snap/mine.patch reversed).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
t0=$(date +%s)
mkdir -p /tmp/basetree && tar cf - --exclude=./build-dn --exclude=./build-db --exclude=./.git . | tar xf - -C /tmp/basetree
(cd /tmp/basetree && patch -R -p1 < .snap/mine.patch > /dev/null && echo "base tree ok")
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
cmake -S /tmp/basetree -B /tmp/build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_TESTS=OFF ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
( ninja -C $BN -j10 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; echo "build new rc $?" ) &
( ninja -C /tmp/build-base -j6 megamoe_cli > $R/build_base.log 2>&1; echo "build base rc $?" ) &
wait
echo "builds $(( $(date +%s) - t0 ))s"
timeout 120 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*:*fp8*:*Fp8*' > $R/tests_fp8.log 2>&1
echo "fp8 tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/tests_fp8.log | head -5
timeout 150 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*mxfp4*:*nvfp4*' > $R/tests_w4a16.log 2>&1
echo "w4a16 tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/tests_w4a16.log | head -5
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base new; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $P --tokens 128,256,512,1024,2048,8192 --iters 50 --json $R/${v}_tma_r$rep.json > $R/${v}_tma_r$rep.log 2>&1
    timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $P --tokens 128,512,2048,8192 --iters 50 --json $R/${v}_act_r$rep.json > $R/${v}_act_r$rep.log 2>&1
    timeout 120 $X bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 1024,2048,4096,8192 --iters 50 --json $R/${v}_w4tma_r$rep.json > $R/${v}_w4tma_r$rep.log 2>&1
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
python3 scripts/ab_compare.py $R base new
for tool in racecheck memcheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.BothTacticsMatchFloat64Product:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:W4A16.GemmTacticsMatchCpu' > $R/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" $R/san-$tool.log | head -2
done
