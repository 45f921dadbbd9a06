#!/usr/bin/env bash
# Session 60: `auto` A/B of the 6 H100 fp8_block buckets at T = 128..1024 merged from run 10's tune
# (the table before them as a tactic cache, same binary); qwen3-30b-a3b T = 128 / 256 unchanged
# (controls). Carry [".carry"]: bld.txz = this tree (act_epilogue.cuh back to 01ff138's).
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p "$R/ab"
AB_VARIANTS="before=$B/megamoe@MEGAMOE_TACTIC_CACHE=$ROOT/bench/results/2026-12-06_session60/table_before_small_h100.json new=$B/megamoe" \
  RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 3 "$t0" "${AB_END:-240}" \
  "ds=--recipe fp8_block --presets deepseek-v3 --tokens 128,256,512,1024 --iters 50" \
  "go=--recipe fp8_block --presets gpt-oss-120b --tokens 128 --iters 50" \
  "mx=--recipe fp8_block --presets mixtral-8x7b,qwen3-30b-a3b --tokens 128,256,512 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
