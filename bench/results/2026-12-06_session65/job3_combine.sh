#!/usr/bin/env bash
# Session 65. Carry [".carry"]: bld.txz = wip/combine-chunk8 7849d4b (main 42591a6 + the combine's
# 8-route rounds; scripts/pack_carry.sh).
# 1. The combine tests (both route chunks, fp32 / bf16 y, bitwise against the host) and the split
#    backends' tests under each MEGAMOE_COMBINE_CHUNK, memcheck / racecheck on the combine test;
# 2. `auto` A/B of the knob: 0 (the rule: 8 routes a round where the launch fits on the GPU),
#    4 (main's kernel), 8 (always where K > 4), T = 1..64 on the four presets (bf16, fp8_block,
#    w4a16_mxfp4) and T = 512 / 8192 (bf16, fp8_block), alternated.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
F='SplitKernels.*:*Split*Backend*:*split*'
for v in 0 4 8; do
  MEGAMOE_COMBINE_CHUNK=$v timeout 120 "$B/megamoe_gpu_tests" --gtest_brief=1 --gtest_filter="$F" > "$R/tests_chunk$v.log" 2>&1
  echo "tests chunk=$v rc=$? $(el)s $(grep -E '^\[  PASSED|^\[  FAILED|tests ran' "$R/tests_chunk$v.log" | tr '\n' ' ')"
  grep -E "FAILED  \]" "$R/tests_chunk$v.log" | head -5
done
gpu_sanitizers 'SplitKernels.Combine*' 200 memcheck racecheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=${AB_END:-560} knob_ab MEGAMOE_COMBINE_CHUNK "rule=0 four=4 eight=8" 90 \
  "b16=--recipe bf16 --presets $P --tokens 1,4,16,64 --iters 50" \
  "f8=--recipe fp8_block --presets $P --tokens 1,4,16,64 --iters 50" \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,4,16,64 --iters 50" \
  "big=--recipe bf16 --presets deepseek-v3,qwen3-30b-a3b --tokens 512,8192 --iters 50" \
  "big8=--recipe fp8_block --presets deepseek-v3,qwen3-30b-a3b --tokens 512,8192 --iters 50"
echo "end $(el)s"
