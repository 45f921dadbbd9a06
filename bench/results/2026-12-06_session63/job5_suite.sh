#!/usr/bin/env bash
# Session 63. Carry [".carry", ".peers"]: bld.txz = cca344c + the W4A16 small tactic's early weights.
# 1. the whole GPU suite in four shards (the early weights on: the default); 2. on an H200: `megamoe
# tune` fp8_block T = 2048 / 4096 / 8192 on the four presets (the H200's entries predate sessions
# 60-61's activation epilogues), the caches as one (tuned.json) for the next call's A/B; on an H100:
# w4a16_mxfp4 T = 1..64 against triton_kernels and our bf16 (issue 15's decode figures with the
# early weights).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
sharded_gpu_tests suite 170
if grep -q H200 "$R/gpu.txt"; then
  for p in deepseek-v3 mixtral-8x7b qwen3-30b-a3b gpt-oss-120b; do
    tune_until "fp8_$p" 580 --recipe fp8_block --presets $p --tokens 2048,4096,8192
  done
  merge_tune_caches "$R/tuned.json" "$R"/tune_fp8_*.json
else
  timeout "$(left 580)" python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 \
    --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b --tokens 1,4,16,64 --iters 50 \
    --triton-kernels-peer .peers/triton_kernels_moe.py --out "$R/tk_mxfp4_small.json" > "$R/tk_mxfp4_small.txt" 2>&1
  echo "tk rc=$? $(el)s"; grep -v "^\[" "$R/tk_mxfp4_small.txt" | tail -16
fi
echo "end $(el)s"
