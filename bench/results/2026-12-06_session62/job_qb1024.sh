#!/usr/bin/env bash
# Session 62: the H100 tune's qwen3-30b-a3b bf16 T = 1024 winner (split_large_tma_fc1, run 3: 1.021x
# over the shipped split_large_tile in one round) A/B-tested as a tactic cache against the shipped
# table, at T = 640 / 768 / 1024 (bucket 1024), three rounds alternated. Carry [".carry"].
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
mkdir -p "$R/ab"
C=bench/results/2026-12-06_session62/run3_bf16_qwen3/tune_qb.json
AB_VARIANTS="shipped=$B/megamoe new=$B/megamoe@MEGAMOE_TACTIC_CACHE=$ROOT/$C" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 3 "$t0" 100 "qb=--recipe bf16 --presets qwen3-30b-a3b --tokens 640,768,1024 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"; grep -h '"tactic"' "$R"/ab/*_r1.json | sort | uniq -c
echo "end $(el)s"
