#!/usr/bin/env bash
# Prepared in session 37 (device time spent), not yet run. bf16 trails vLLM by 2-5% at qwen3-30b-a3b /
# mixtral-8x7b T = 128 (CUTLASS's swap-AB tiles stream the weights at ~3.98 TB/s, vLLM's Triton kernel at
# ~4.20: session 36's timelines). vLLM there runs 3 small CTAs per SM (BLOCK 16 x 128 x 128, 2 stages),
# each its own weight stream; CUTLASS's cooperative 128-row swap-AB tile splits one tile over both
# consumer warpgroups. swap_pp_macro.patch (on 26055b7): with -DMEGAMOE_BF16_SWAP_PP the four swap-AB
# instantiations (32- / 64-wide token tiles, plain and with the activation epilogue) become ping-pong
# kernels of 64 weight rows a tile, each consumer warpgroup its own tile (two weight streams per SM, twice
# the tiles). It compiles (scripts/local_variant.sh, 1m49s); nothing of it ran on a GPU.
# Binaries, built on the CPU machine: .carry/base.tgz (megamoe of 26055b7) and .carry/pp.tgz (megamoe +
# megamoe_gpu_tests: git apply the patch, scripts/local_variant.sh /tmp/var pp "-DMEGAMOE_BF16_SWAP_PP=1"
# src/kernels/sm90/gemm/grouped_gemm_bf16_swapab{,64,64_act,_act}.cu, revert). Carry [".carry"] holding only
# these two (the working tree is ~31 MB; tree + carry must stay under 64 MiB).
# 1. bf16 GEMM, activation-epilogue, split and conformance GPU tests with the variant; racecheck /
#    memcheck / synccheck on GroupedGemm.SmallShapesRandomRowsWithEmptyGroups;
# 2. A/B base vs pp, bf16 on sm90_bf16_bf16_bf16_split, T = 8..1024 (the swap-AB cells), four presets,
#    alternated, best of two.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/pp && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/pp.tgz -C /tmp/pp || exit 1
scripts/ab_checks.sh "$R" /tmp/pp/megamoe_gpu_tests "$t0" 'GroupedGemm*:GemmBf16Act*:SplitBf16*:*bf16_bf16_bf16*' \
  'GroupedGemm.SmallShapesRandomRowsWithEmptyGroups'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" /tmp/base/megamoe /tmp/pp/megamoe 2 "$t0" 480 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --presets $PR --tokens 8,32,128,256,512,1024 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |T=  128|geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
