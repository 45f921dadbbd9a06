#!/usr/bin/env bash
# Prepared in session 59 for the next session's first call (not run). Carry [".carry"]: bld.txz =
# main's binary (scripts/pack_carry.sh).
#  - an H200: `megamoe tune` of fp8_block T = 16384 / 32768, four presets: the H200's buckets past
#    8192 still run CUTLASS's tile at deepseek-v3 (session 59's H100 tune moved them to split_tma_act,
#    1.20x / 1.11x); merge with scripts/merge_tune.py --buckets 16384-32768 --min-gain 0.02, then A/B;
#  - an H100: `auto` A/B of session 59's H100 entries for T = 16384 / 32768 (c5062ed, not A/B-tested):
#    the table before them as a tactic cache (table_before_c5062ed_h100.json, scripts/table_as_cache.py)
#    against the shipped one, same binary.
set -u
source scripts/device_env.sh
carried_job_start
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
if grep -q H200 "$R/gpu.txt"; then
  for p in deepseek-v3 qwen3-30b-a3b gpt-oss-120b mixtral-8x7b; do
    tune_until "fp8_big_$p" 500 --recipe fp8_block --presets $p --tokens 16384,32768
  done
else
  mkdir -p "$R/ab"
  AB_VARIANTS="before=$B/megamoe@MEGAMOE_TACTIC_CACHE=$ROOT/bench/results/2026-12-06_session59/table_before_c5062ed_h100.json new=$B/megamoe" \
    RUN_TIMEOUT=200 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-400}" \
    "fp8=--recipe fp8_block --presets $P --tokens 16384,32768 --iters 50" > "$R/ab.txt" 2>&1
  grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
fi
echo "end $(el)s"
