#!/usr/bin/env bash
# Diagnosis 2: our TMA kernels without the token tiles' TMA loads (nt), and without both the tokens and
# the MMAs (nmt), against the tree without the macros (wrong results by design).
set -u
source scripts/device_env.sh
t0=$(date +%s)
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}"
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF" JOBS=6 scripts/device_build.sh /tmp/build-base megamoe_cli > $R/base_build.log 2>&1 &
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMEGAMOE_DIAG_NO_TOKENS" JOBS=5 \
  scripts/device_build.sh /tmp/build-nt megamoe_cli > $R/nt_build.log 2>&1 &
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMEGAMOE_DIAG_NO_TOKENS,MEGAMOE_DIAG_NO_MMA" JOBS=5 \
  scripts/device_build.sh /tmp/build-nmt megamoe_cli > $R/nmt_build.log 2>&1 &
wait
echo "builds $(( $(date +%s) - t0 ))s"
export MEGAMOE_TACTIC_CACHE=off
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base nt nmt; do
    X=/tmp/build-$v/megamoe; [ -x $X ] || { echo "no $v"; continue; }
    [ $(( $(date +%s) - t0 )) -gt 300 ] && break 2
    timeout 40 $X bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $PR \
      --tokens 2048,8192 --iters 50 --json $R/${v}_mx_r$rep.json > $R/${v}_mx_r$rep.log 2>&1
    timeout 40 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR \
      --tokens 2048,8192 --iters 50 --json $R/${v}_fp8_r$rep.json > $R/${v}_fp8_r$rep.log 2>&1
    echo "$v r$rep $(( $(date +%s) - t0 ))s"
  done
done
python3 scripts/ab_compare.py $R base nt
python3 scripts/ab_compare.py $R base nmt
echo "end $(( $(date +%s) - t0 ))s"
