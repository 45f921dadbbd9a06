#!/usr/bin/env bash
# Session 63. Carry [".carry"]: bld.txz = main cca344c (scripts/pack_carry.sh).
# On an H200: its bf16 and fp8_block entries at T = 128..1024 predate our bf16 large-T GEMM's
# dynamic order and the fp8 activation epilogues (mixtral-8x7b bf16 T = 256 / 512 still run
# CUTLASS's tile there, 0.96x / 1.01x vLLM in session 59). 1. `megamoe tune` bf16 and fp8_block
# T = 128..1024 on the four presets; 2. the caches as one (tuned_small.json); 3. `auto` with the
# shipped table against `auto` with it, alternated.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
grep -q H200 "$R/gpu.txt" || echo "not an H200: this tune is for the H200's entries"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for p in mixtral-8x7b qwen3-30b-a3b deepseek-v3 gpt-oss-120b; do
  tune_until "bf16_$p" 250 --recipe bf16 --presets $p --tokens 128,256,512,1024
done
for p in qwen3-30b-a3b mixtral-8x7b deepseek-v3 gpt-oss-120b; do
  tune_until "fp8_$p" 400 --recipe fp8_block --presets $p --tokens 128,256,512,1024
done
merge_tune_caches "$R/tuned_small.json" "$R"/tune_*.json
mkdir -p "$R/ab"
AB_VARIANTS="shipped=$B/megamoe tuned=$B/megamoe@MEGAMOE_TACTIC_CACHE=$R/tuned_small.json" RUN_TIMEOUT=90 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 585 "b16=--recipe bf16 --presets $P --tokens 128,256,512,1024 --iters 50" \
  "f8=--recipe fp8_block --presets $P --tokens 128,256,512,1024 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
