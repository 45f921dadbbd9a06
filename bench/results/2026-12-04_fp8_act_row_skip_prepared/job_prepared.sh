#!/usr/bin/env bash
# Prepared in session 35 (no device time left), not yet run. The fused fp8 FC1 (split_tma_act)
# computes the activation for all 64 token rows of a warpgroup's tile; at qwen3-30b-a3b T = 128 an
# expert has ~8 rows, so warps 1-3 and the upper half of warp 0 compute values quantize_store never
# stores. act_row_skip.patch skips them (activate() gets the thread's row r0; uniform per warp when
# all its rows are past the tile's). Session 34's no-math diagnosis bounds the gain: 1.07-1.20x.
# 1. fp8 GPU tests (Fp8Gemm.FusedActivationEqualsSeparateKernelSmall checks the fused epilogue
#    bitwise against the separate kernel, ragged experts included); racecheck / memcheck / synccheck;
# 2. base against new, forced split_tma_act and `auto`, T = 128..2048, alternated, best of two.
# Binaries (build first, on the CPU machine, from an up-to-date build dir at the patch's base):
#   scripts/local_variant.sh /tmp/var base "-DMEGAMOE_DIAG_UNUSED" src/kernels/sm90/gemm/grouped_gemm_fp8_tma_act.cu
#   git apply bench/results/2026-12-04_fp8_act_row_skip_prepared/act_row_skip.patch
#   scripts/local_variant.sh /tmp/var rowskip "-DMEGAMOE_DIAG_UNUSED" src/kernels/sm90/gemm/grouped_gemm_fp8_tma_act.cu
#   git checkout src
#   tar czf .carry/base.tgz -C /tmp/var/base megamoe megamoe_gpu_tests
#   tar czf .carry/rowskip.tgz -C /tmp/var/rowskip megamoe megamoe_gpu_tests
# Run from the repository root with carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/rowskip.tgz -C /tmp/new || exit 1
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' 'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 450 \
  "act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $PR --tokens 128,256,512,2048 --iters 50" \
  "auto=--recipe fp8_block --presets $PR --tokens 128,512,2048,8192 --iters 50" | tail -n 40
echo "end $(( $(date +%s) - t0 ))s"
