#!/usr/bin/env bash
# W5 (not run yet): the fp8 TMA kernel's wide tiles (wide_tile_variant_unrun.patch: passes of up to
# 64 tokens shared by both warpgroups x two 128-row weight blocks, one per warpgroup; 5 stages of
# 8 + 32 KiB, 160 KiB of weights in flight against 96 KiB), switched by MEGAMOE_FP8_TMA_WIDE=1 for
# the plain-D kernels (`split_tma`). Before running: apply the patch to HEAD and save
# `git diff -- src > .snap/mine.patch` (the base tree is HEAD without it).
# A/B: base (HEAD), narrow (patched, WIDE=0: must equal base), wide (patched, WIDE=1); forced
# split_tma at the weight-streaming sizes and beyond; tests and sanitizers with WIDE=1.
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
for w in 0 1; do
  MEGAMOE_FP8_TMA_WIDE=$w timeout 60 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*:*fp8*every_tactic*' > $R/tests_wide$w.log 2>&1
  echo "Fp8Gemm + every_tactic WIDE=$w rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/tests_wide$w.log | head -3
done
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base narrow wide; do
    X=$BN/megamoe; w=0; [ $v = base ] && X=/tmp/build-base/megamoe; [ $v = wide ] && w=1
    MEGAMOE_FP8_TMA_WIDE=$w timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $P --tokens 128,256,512,1024,2048,8192 --iters 50 --json $R/${v}_tma_r$rep.json > $R/${v}_tma_r$rep.log 2>&1
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
python3 scripts/ab_compare.py $R base narrow | tail -3
python3 scripts/ab_compare.py $R base wide
for tool in racecheck memcheck synccheck; do
  MEGAMOE_FP8_TMA_WIDE=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.BothTacticsMatchFloat64Product' > $R/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" $R/san-$tool.log | head -2
done
