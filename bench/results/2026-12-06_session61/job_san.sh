#!/usr/bin/env bash
# Session 61: compute-sanitizer on 1683a19's fp8 epilogue (the quantizer's warp vote around the staged
# code stores, the clamp-free path) and the activation kernels. Carry [".carry"]: bld.txz = 1683a19.
set -u
source scripts/device_env.sh
carried_job_start
gpu_sanitizers 'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.PartialBlocksSmall:Fp8Gemm.ManyTilesPerCta:SplitKernels.Activation*' 150 racecheck synccheck memcheck
echo "end $(el)s"
