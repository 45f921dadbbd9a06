#!/usr/bin/env bash
# Prepared in session 38 (no device time left), not yet run. Two loose ends of the W4A16 small tactic's
# TMA form (shipped in 008c352, docs/BENCHMARKS.md session 38):
# 1. the W4A16 GPU tests at fbe4e07, with the new operand alignment case of W4A16.RefusesBadOutputs
#    (never run on a GPU);
# 2. the before / after against 466e0d2 exactly. Session 38's A/Bs used, as their base, the cp.async form
#    as refactored in 008c352 (small_substep / small_store shared with the TMA form): its SASS differs
#    from 466e0d2's (same sizes and registers; scripts/sass_same.py --rev 466e0d2), so neither the forced
#    1.027x nor the `auto` 1.023x is against the kernel users had. Variants: tb = 466e0d2's small kernel
#    and table (scripts/local_variant.sh with 466e0d2's grouped_gemm_w4a16_small.cu and
#    src/core/tactics_default.cpp), cp = fbe4e07 with MEGAMOE_W4A16_SMALL_TMA=0 (the refactored cp.async
#    form), head = fbe4e07; forced split_small (the tables do not enter) and `auto`, w4a16_mxfp4 / nvfp4,
#    four presets, alternated, best of two.
# Binaries, built on the CPU machine: .carry/head.tgz (megamoe + megamoe_gpu_tests of fbe4e07),
# .carry/true_base.tgz (megamoe, the variant above). Carry [".carry"] holding only these two.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head /tmp/tb && tar xzf .carry/head.tgz -C /tmp/head && tar xzf .carry/true_base.tgz -C /tmp/tb || exit 1
timeout 150 /tmp/head/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*' > "$R/tests.log" 2>&1
echo "W4A16 tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -12
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="tb=/tmp/tb/megamoe cp=/tmp/head/megamoe@MEGAMOE_W4A16_SMALL_TMA=0 head=/tmp/head/megamoe" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 520 \
  "forced_mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small --presets $PR --tokens 1,2,4,8,16,32,64,128 --iters 50" \
  "auto_mx=--recipe w4a16_mxfp4 --presets $PR --tokens 1,2,4,8,16,32,64,128,256 --iters 50" \
  "auto_nv=--recipe w4a16_nvfp4 --presets $PR --tokens 1,2,4,8,16,32,64,128,256 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
