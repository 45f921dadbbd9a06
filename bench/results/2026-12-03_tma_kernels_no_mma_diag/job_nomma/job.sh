#!/usr/bin/env bash
# Diagnosis: our two TMA kernels (fp8 split_tma, W4A16 split_large_tma) with the MMAs compiled out
# (MEGAMOE_DIAG_NO_MMA; wrong results by design) against the same tree without the macro.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}"
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF" JOBS=8 scripts/device_build.sh /tmp/build-base megamoe_cli > $R/base_build.log 2>&1 &
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMEGAMOE_DIAG_NO_MMA" JOBS=8 \
  scripts/device_build.sh /tmp/build-diag megamoe_cli > $R/diag_build.log 2>&1 &
wait
echo "builds $(( $(date +%s) - t0 ))s"
ls /tmp/build-base/megamoe /tmp/build-diag/megamoe || { tail -5 $R/*_build.log; exit 1; }
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base diag; do
    X=/tmp/build-$v/megamoe
    [ $(( $(date +%s) - t0 )) -gt 500 ] && break 2
    timeout 60 $X bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $PR \
      --tokens 2048,8192 --iters 50 --json $R/${v}_mx_r$rep.json > $R/${v}_mx_r$rep.log 2>&1
    timeout 60 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR \
      --tokens 2048,8192 --iters 50 --json $R/${v}_fp8_r$rep.json > $R/${v}_fp8_r$rep.log 2>&1
    echo "$v r$rep $(( $(date +%s) - t0 ))s"
  done
done
python3 scripts/ab_compare.py $R base diag
echo "end $(( $(date +%s) - t0 ))s"
