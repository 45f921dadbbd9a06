#!/usr/bin/env bash
# Session 60: the fp8 WidePaired activation epilogue's codes through shared memory, 16-byte stores
# (quantize_store with `codes`; MEGAMOE_FP8_TMA_STAGED_CODES=0 keeps 4ecec7c's 2-byte stores).
# Carry [".carry"]: bld.txz = this tree, main.txz = main 5e81189.
# 1. fp8 tests with the knob on and off; 2. memcheck / racecheck / synccheck on the fused activation
# tests; 3. A/B main / direct (4ecec7c's form) / staged: auto T = 256..16384, four presets.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/main.txz -C /tmp/b0
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
MEGAMOE_FP8_TMA_STAGED_CODES=0 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*:Fp8Block.*' > "$R/tests_direct.log" 2>&1
echo "tests direct rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_direct.log" | head -8
gpu_sanitizers 'Fp8Gemm.FusedActivationEqualsSeparateKernel*:Fp8Gemm.PartialBlocksSmall' 100 memcheck racecheck synccheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/b0/megamoe direct=$B/megamoe@MEGAMOE_FP8_TMA_STAGED_CODES=0 staged=$B/megamoe" RUN_TIMEOUT=200 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-540}" \
  "auto=--recipe fp8_block --presets $P --tokens 256,1024,2048,4096,8192,16384 --iters 50" \
  "act=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets deepseek-v3 --tokens 8192 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
for v in "main direct" "direct staged" "main staged"; do python3 scripts/ab_compare.py "$R/ab" $v 2>&1 | tail -1; done
echo "end $(el)s"
