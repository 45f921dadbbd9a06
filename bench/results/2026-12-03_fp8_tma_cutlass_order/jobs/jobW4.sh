#!/usr/bin/env bash
# W4: (1) fp8 TMA kernel with the K loop's shared-memory addresses pinned through shuffles (no S2R
# SR_CgaCtaId a step): A/B against HEAD (12e6594, built in the same job), Fp8Gemm tests, sanitizers.
# (2) per-kernel durations (ncu, clocks free, caches flushed per kernel) of the `auto` forward at
# T = 8192: fp8_block mixtral-8x7b, bf16 deepseek-v3 (HEAD binary).
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
timeout 40 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm.log 2>&1; rc=$?
echo "Fp8Gemm rc=$rc"; grep -E "FAILED|PASSED" $R/fp8gemm.log | head -3
[ $rc != 0 ] && exit 1
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base new; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    for tac in split_tma split_tma_act; do
      timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 2048,8192 --iters 50 --json $R/${v}_${tac}__fp8_r$rep.json > $R/${v}_${tac}__fp8_r$rep.log 2>&1
    done
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
for tac in split_tma split_tma_act; do echo "=== $tac base vs new"; python3 scripts/ab_compare.py $R base_${tac}_ new_${tac}_ 2>&1 | grep -A14 "== fp8$"; done
for tool in racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' > $R/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED" $R/san-$tool.log | head -2
done
unset MEGAMOE_TACTIC_CACHE
M="--clock-control none --cache-control all --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --page raw"
X=/tmp/build-base/megamoe
for c in fp8_block:mixtral-8x7b bf16:deepseek-v3; do
  r=${c%%:*}; p=${c##*:}
  timeout 100 ncu $M -c 400 $X run --preset $p --recipe $r --tokens 8192 --no-check --iters 2 > $R/T8192_${r}_$p.csv 2> $R/T8192_${r}_$p.err
  echo "ncu $r $p rc=$? $(( $(date +%s) - t0 ))s"
done
gzip -f $R/T8192_*.csv
