#!/usr/bin/env bash
# Written 2026-12-03 (session 30), not run. The fp8 TMA kernel with two temporaries per consumer
# thread (step kt + 1's MMAs issued before step kt's are waited for and promoted), two forms, against
# the shipped kernel, in one job (three builds, alternated, best of two):
#   dbl1  two_temporaries_always_next.patch: always issues kt + 1 first (blocking on its stage)
#   dbl2  two_temporaries_tested_next.patch: issues kt + 1 first only if its stage has landed
#         (mbarrier.test_wait), else finishes kt first, so a stage is never held while waiting
# Correctness for both (the 101 fp8 GPU tests; racecheck / memcheck / synccheck on the two small fp8
# GEMM tests), then `megamoe bench --tactic split_tma|split_tma_act`, T = 128, 2048, 8192.
# Run from the repository root on a clean tree.
set -u
source .snap/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
D=bench/results/2026-12-03_fp8_tma_two_temporaries
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}"
declare -A PATCH=([dbl1]=two_temporaries_always_next.patch [dbl2]=two_temporaries_tested_next.patch)
for v in base dbl1 dbl2; do
  rm -rf /tmp/tree-$v && mkdir -p /tmp/tree-$v
  tar cf - --exclude=./.git --exclude='./build*' . | tar xf - -C /tmp/tree-$v
  [ $v = base ] || (cd /tmp/tree-$v && patch -p1 --quiet < $ROOT/$D/${PATCH[$v]}) || { echo "$v patch failed"; exit 1; }
done
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF" JOBS=4 /tmp/tree-base/scripts/device_build.sh /tmp/build-base megamoe_cli > $R/base_build.log 2>&1 &
for v in dbl1 dbl2; do
  MEGAMOE_CMAKE_ARGS="$NC" JOBS=6 /tmp/tree-$v/scripts/device_build.sh /tmp/build-$v megamoe_cli megamoe_gpu_tests > $R/${v}_build.log 2>&1 &
done
wait
for v in base dbl1 dbl2; do [ -x /tmp/build-$v/megamoe ] || { echo "$v build failed"; tail -n 20 /tmp/build-$v.build.log; exit 1; }; done
echo "builds $(( $(date +%s) - t0 ))s"
SMALL='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall'
for v in dbl1 dbl2; do
  mkdir -p $R/checks_$v
  scripts/ab_checks.sh $R/checks_$v /tmp/build-$v/megamoe_gpu_tests $t0 'Fp8*:*fp8*' "$SMALL"
done
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
CONFIGS=("split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50"
         "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50")
for rep in 1 2; do
  for v in base dbl1 dbl2; do
    for c in "${CONFIGS[@]}"; do
      [ $(( $(date +%s) - t0 )) -gt 560 ] && { echo "deadline at $v r$rep"; break 3; }
      name=${c%%=*}; read -r -a args <<< "${c#*=}"
      timeout 60 /tmp/build-$v/megamoe bench "${args[@]}" --json $R/${v}_${name}_r$rep.json > $R/${v}_${name}_r$rep.log 2>&1 || echo "$v $name r$rep rc=$?"
    done
  done
  echo "r$rep $(( $(date +%s) - t0 ))s"
done
echo "=== dbl1"; python3 scripts/ab_compare.py $R base dbl1
echo "=== dbl2"; python3 scripts/ab_compare.py $R base dbl2
echo "end $(( $(date +%s) - t0 ))s"
