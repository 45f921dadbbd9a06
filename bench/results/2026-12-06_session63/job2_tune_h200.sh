#!/usr/bin/env bash
# Session 63. Carry [".carry"]: bld.txz = dcf6dc2 (run 1: cca344c; run 2: cca344c + dcf6dc2's W4A16 early weights; fp8 / bf16 code as main in all).
# On an H200: the H200's fp8_block entries at T = 2048..8192 come from session 59's tune, before
# sessions 60-61's activation epilogues (on an H100 the re-tune after them moved 9 buckets and
# deepseek-v3 T = 8192 8.04 -> 7.39 ms). 1. `megamoe tune` fp8_block T = 2048 / 4096 / 8192 on the
# four presets; 2. the four caches as one (tuned.json); 3. `auto` with the shipped table against
# `auto` with tuned.json (MEGAMOE_TACTIC_CACHE), alternated, T = 2048..8192.
# On an H100: see the branch below.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
if ! grep -q H200 "$R/gpu.txt"; then
  # Run 1 of this script (an H100) ran session 62's qwen3-30b-a3b bf16 T = 1024 tactic-cache A/B here
  # (1.005x; tune_qb_h100_session62.json), run 2 (an H100) W4A16 and bf16 at T = 8192 (four presets,
  # one process each). Later runs on an H100: the bf16 tune of the two presets behind vLLM at T = 128..1024.
  for p in mixtral-8x7b qwen3-30b-a3b; do
    tune_until "bf16_$p" 200 --recipe bf16 --presets $p --tokens 128,256,512,1024
  done
  echo "end $(el)s"; exit 0
fi
for p in deepseek-v3 mixtral-8x7b qwen3-30b-a3b gpt-oss-120b; do
  tune_until "fp8_$p" 240 --recipe fp8_block --presets $p --tokens 2048,4096,8192
done
merge_tune_caches "$R/tuned.json" "$R"/tune_fp8_*.json
AB_VARIANTS="shipped=$B/megamoe tuned=$B/megamoe@MEGAMOE_TACTIC_CACHE=$R/tuned.json" RUN_TIMEOUT=120 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 430 "f8=--recipe fp8_block --presets $P --tokens 2048,4096,8192 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"; grep -h '"tactic"' "$R"/ab/*tuned*_r1.json | sort | uniq -c
echo "end $(el)s"
