#!/usr/bin/env bash
# Session 60, first call: the fp8 TMA kernel's activation epilogue without a branch per element
# (activate / quantize_store unchecked wherever the tile's 128 columns lie below I; encode2 selects
# a poisoned group's codes instead of returning early). Session 59's ncu (run 1): the epilogue took
# ~18% of deepseek-v3 FC1's consumer samples (KT = 56) and ~45% of qwen3-30b-a3b's (KT = 16), 61%
# of them waiting on one element's dependent chain at a time.
# Carry [".carry"]: bld.txz = this tree, main.txz = main 5e81189.
# 1. fp8 GEMM / block tests + every fp8 backend's conformance; 2. memcheck / racecheck on the fused
# activation tests (checked and unchecked blocks); 3. A/B main / epi: auto T = 256..8192 on four
# presets, forced split_tma_act at T = 8192.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/main.txz -C /tmp/b0
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
gpu_sanitizers 'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.PartialBlocksSmall' 100 memcheck racecheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/b0/megamoe epi=$B/megamoe" RUN_TIMEOUT=200 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-540}" \
  "auto=--recipe fp8_block --presets $P --tokens 256,1024,2048,4096,8192 --iters 50" \
  "act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets deepseek-v3 --tokens 8192 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
