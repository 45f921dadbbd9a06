#!/usr/bin/env bash
# Session 64. Carry [".carry"]: bld.txz = the narrow ring for our bf16 large TMA GEMM (working tree on
# b62cd0c: Bf16LargeTmaArgs::narrow, by default where experts hold <= 64 rows on average; the wide
# kernels' SASS identical to b62cd0c's, scripts/sass_same.py). 1. the whole GPU suite (four shards);
# 2. racecheck / memcheck on the large kernel's sanitizer tests (both rings); 3. `auto`
# bf16 with MEGAMOE_BF16_LARGE_TMA_NARROW=0 (the wide ring everywhere, = b62cd0c) against the default
# rule, T = 256..4096, four presets; 4. forced split_large_tma_fc1 at cells of <= 64 rows an expert.
# (Cut to ~240 s: the device budget left after the failed starts.)
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
sharded_gpu_tests suite 100
gpu_sanitizers 'Bf16LargeTma.SmallProblemForSanitizers:GemmBf16Act.LargeTmaStagedForSanitizers' 40 racecheck memcheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=235 knob_ab MEGAMOE_BF16_LARGE_TMA_NARROW "wide=0 rule=-1" 60 \
  "auto=--recipe bf16 --presets $P --tokens 256,512,1024,2048,4096 --iters 50" \
  "fc1=--recipe bf16 --presets qwen3-30b-a3b,gpt-oss-120b,deepseek-v3 --tokens 1024,2048 --iters 50 --tactic split_large_tma_fc1"
echo "end $(el)s"
