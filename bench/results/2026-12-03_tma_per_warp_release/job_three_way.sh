#!/usr/bin/env bash
# Three builds in one job (2026-12-03, session 30): base (7258c73's kernels), krot (base +
# ../2026-12-03_fp8_tma_k_rotation/k_rotation.patch, whose tests and sanitizers passed in its own job)
# and pwr (base + per_warp_release.patch: tests and sanitizers here). Run from the repository root on
# a clean tree. Bench: each configuration with the three binaries in turn, three repetitions; then
# scripts/ab_compare.py base krot and base pwr (best of three).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
D=bench/results
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}"
for v in base krot; do
  rm -rf /tmp/tree-$v && mkdir -p /tmp/tree-$v
  tar cf - --exclude=./.git --exclude='./build*' . | tar xf - -C /tmp/tree-$v
done
(cd /tmp/tree-krot && patch -p1 --quiet < $ROOT/$D/2026-12-03_fp8_tma_k_rotation/k_rotation.patch) || { echo "krot patch failed"; exit 1; }
git apply $D/2026-12-03_tma_per_warp_release/per_warp_release.patch || { echo "pwr patch failed"; exit 1; }
MEGAMOE_CMAKE_ARGS="$NC" JOBS=8 scripts/device_build.sh $BN megamoe_cli megamoe_gpu_tests > $R/pwr_build.log 2>&1 & p1=$!
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF" JOBS=4 /tmp/tree-base/scripts/device_build.sh /tmp/build-base megamoe_cli > $R/base_build.log 2>&1 & p2=$!
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF" JOBS=4 /tmp/tree-krot/scripts/device_build.sh /tmp/build-krot megamoe_cli > $R/krot_build.log 2>&1 & p3=$!
wait $p1 && wait $p2 && wait $p3 || { tail -n 20 $R/*_build.log; exit 1; }
echo "builds $(( $(date +%s) - t0 ))s"
# (as run, these checks were inline; scripts/ab_checks.sh runs the same commands)
scripts/ab_checks.sh $R $BN/megamoe_gpu_tests $t0 'Fp8*:*fp8*:W4A16*:*mxfp4*:*nvfp4*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:W4A16.GemmTacticsMatchCpu:W4A16.ActivationEpilogue*'
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
CONFIGS=("split_tma=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,2048,8192 --iters 50"
         "split_tma_act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,2048,8192 --iters 50"
         "mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $PR --tokens 2048,8192 --iters 50")
for rep in 1 2 3; do
  for v in base krot pwr; do
    bin=/tmp/build-$v/megamoe; [ $v = pwr ] && bin=$BN/megamoe
    for c in "${CONFIGS[@]}"; do
      [ $(( $(date +%s) - t0 )) -gt 540 ] && { echo "deadline at $v r$rep"; break 3; }
      name=${c%%=*}; read -r -a args <<< "${c#*=}"
      timeout 60 $bin bench "${args[@]}" --json $R/${v}_${name}_r$rep.json > $R/${v}_${name}_r$rep.log 2>&1 || echo "$v $name r$rep rc=$?"
    done
  done
  echo "r$rep $(( $(date +%s) - t0 ))s"
done
echo "=== krot"; python3 scripts/ab_compare.py $R base krot
echo "=== pwr"; python3 scripts/ab_compare.py $R base pwr
echo "end $(( $(date +%s) - t0 ))s"
