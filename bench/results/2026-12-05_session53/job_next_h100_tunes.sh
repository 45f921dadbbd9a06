#!/usr/bin/env bash
# Prepared in session 53 (not run yet), for an H100 after job_next.sh: the rest of the H100's partial
# table entries, `megamoe tune` of fp8_block and W4A16 at T = 1 .. 1024 (and W4A16 2048 / 4096 / 8192,
# of which session 53 tuned only 4096 / 8192 and merged none) on the four presets; merge with
# scripts/merge_tune.py r/tune_*.json --add --min-gain 0.02, then an `auto` A/B as run5 did
# (job_ab_h100_table.sh with the recipes and tokens changed) before shipping: the "old" side's cache is
# the table before the merge as the H100 runs it, `python3 scripts/table_as_cache.py --gpu "NVIDIA H100
# 80GB HBM3" --driver 13000 --out old.json` run on that commit's table.
# Carry [".carry"]. Ends by ~560 s; RECIPES="fp8_block" etc. picks a subset (one call each if needed).
set -u
source scripts/device_env.sh
carried_job_start
grep -q H100 "$R/gpu.txt" || { echo "not an H100: $(cat "$R/gpu.txt")"; exit 0; }
for r in ${RECIPES:-fp8_block w4a16_mxfp4 w4a16_nvfp4}; do
  tok=1-1024; [ "$r" != fp8_block ] && tok=1-8192
  for p in qwen3-30b-a3b gpt-oss-120b mixtral-8x7b deepseek-v3; do
    [ "$(left 560)" -lt 30 ] && { echo "skip tune $r $p (time)"; continue; }
    timeout "$(left 560)" $B/megamoe tune --recipe $r --presets $p --tokens $tok --iters 50 --rounds 2 \
      --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2>&1
    echo "tune $r $p rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_${r}_$p.txt" | grep -E "^$p " | cut -c1-150
  done
done
echo "end $(el)s"
