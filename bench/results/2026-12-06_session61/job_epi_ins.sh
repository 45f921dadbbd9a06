#!/usr/bin/env bash
# Session 61: fewer instructions an element in the activation epilogues (activation_math.cuh: the
# sigmoid's e^-|z| as the square of one ex2.approx instead of libm's expf, no Newton step on the
# reciprocal, the clamps skipped per tile where limit = +inf in the fp8 WidePaired epilogue; its
# amax as max.NaN of |a|; scale_division.h: the quotient's sign without copysign), against main
# 54ff418. Carry [".carry"]: bld.txz = this tree, base.txz = main 54ff418.
# 1. the whole GPU test binary (SplitKernels.ActivationSigmoidWholeRange, every fused activation
# test against its unfused kernels and the CPU reference); 2. memcheck on the activation tests;
# 3. A/B base / new: fp8_block `auto` T = 256..16384, bf16 and w4a16_mxfp4 `auto` T = 8192.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/base.txz -C /tmp/b0
sharded_gpu_tests suite 200
gpu_sanitizers 'SplitKernels.Activation*:Fp8Gemm.FusedActivationEqualsSeparateKernel*:Fp8Gemm.PartialBlocksSmall' 90 memcheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="base=/tmp/b0/megamoe new=$B/megamoe" RUN_TIMEOUT=200 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-540}" \
  "fp8=--recipe fp8_block --presets $P --tokens 256,1024,2048,8192,16384 --iters 50" \
  "bf16=--recipe bf16 --presets $P --tokens 8192 --iters 50" \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 8192 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
python3 scripts/ab_compare.py "$R/ab" base new 2>&1 | tail -30
echo "end $(el)s"
