#!/usr/bin/env bash
# Prepared in session 38 (no device time left), not yet run. Loose ends of the W4A16 small tactic's
# TMA form (shipped in 008c352, docs/BENCHMARKS.md session 38):
# 1. the W4A16 GPU tests with the new operand alignment case of W4A16.RefusesBadOutputs (never run on
#    a GPU);
# 2. the before / after against 466e0d2 exactly. Session 38's A/Bs used, as their base, the cp.async form
#    as refactored in 008c352 (small_substep / small_store shared with the TMA form): its SASS differs
#    from 466e0d2's (same sizes and registers; scripts/sass_same.py --rev 466e0d2);
# 3. a third form, small_tma_2steps.patch (on 02c371d): MEGAMOE_W4A16_SMALL_TMA=2 runs two K steps a
#    stage (one copy per operand, 8 KB of codes) at three CTAs per SM -- the cp.async form's occupancy,
#    where gpt-oss-120b T = 1 / 2 lost 4-5% to the shipped form's two CTAs per SM (BT 32 spills 28-64
#    bytes at the 80-register cap; BT 16, the decode cells, none). The patch leaves the shipped form's
#    SASS byte for byte the same (checked), so knob 1 of this binary is fbe4e07's kernel.
# Variants: tb = 466e0d2's small kernel and table (scripts/local_variant.sh with 466e0d2's
# grouped_gemm_w4a16_small.cu and src/core/tactics_default.cpp on fbe4e07's build), cp / head / tma2 =
# the patched binary with MEGAMOE_W4A16_SMALL_TMA = 0 / 1 / 2; forced split_small (tables do not enter)
# and `auto`, w4a16_mxfp4 / nvfp4, four presets, alternated, best of two.
# Binaries, built on the CPU machine: .carry/head2.tgz (megamoe + megamoe_gpu_tests of 02c371d + the
# patch), .carry/true_base.tgz (megamoe, tb). Carry [".carry"] holding only these two.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head2 /tmp/tb && tar xzf .carry/head2.tgz -C /tmp/head2 && tar xzf .carry/true_base.tgz -C /tmp/tb || exit 1
timeout 150 /tmp/head2/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*' > "$R/tests.log" 2>&1
echo "W4A16 tests (shipped form) rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -12
mkdir -p "$R/knob2"
MEGAMOE_W4A16_SMALL_TMA=2 scripts/ab_checks.sh "$R/knob2" /tmp/head2/megamoe_gpu_tests "$t0" 'W4A16.*:*fp4*' \
  'W4A16.GemmTacticsMatchCpu:W4A16.SmallShapes'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
M=/tmp/head2/megamoe@MEGAMOE_W4A16_SMALL_TMA
mkdir -p "$R/ab"
AB_VARIANTS="tb=/tmp/tb/megamoe cp=$M=0 head=$M=1 tma2=$M=2" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 540 \
  "forced_mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small --presets $PR --tokens 1,2,4,8,16,32,64,128 --iters 50" \
  "auto_mx=--recipe w4a16_mxfp4 --presets $PR --tokens 1,2,4,8,16,32,64,128,256 --iters 50" \
  "auto_nv=--recipe w4a16_nvfp4 --presets $PR --tokens 1,2,4,8,16,32,64,128,256 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
