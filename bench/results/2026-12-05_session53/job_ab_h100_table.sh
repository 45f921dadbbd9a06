#!/usr/bin/env bash
# Session 53: `auto` with the H100 entries of the shipped table (new) against the table without them
# (old: what the H100 ran at 2975ecd, the H200's entries, given to the same binary as a tactic cache
# keyed to this H100: h200_table_as_h100_cache.json), alternating, two rounds, T = 2048..32768 on the
# four presets (bf16, fp8_block), nvfp4 where its entries changed. One binary (.carry/bld.txz), so no
# kernel differs. Carry [".carry"]. Ends by ~415 s.
set -u
source scripts/device_env.sh
carried_job_start
OLD=$(pwd)/bench/results/2026-12-05_session53/h200_table_as_h100_cache.json
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
ab() {  # ab RECIPE PRESETS TOKENS DEADLINE
  local r=$1 p=$2 tok=$3 d=$4 round v bin
  for round in 1 2; do
    for v in old new; do
      [ "$(left $d)" -lt 15 ] && { echo "skip $r $v r$round (time)"; continue; }
      cache=$OLD; [ $v = new ] && cache=/nonexistent/megamoe/tactics.json
      MEGAMOE_TACTIC_CACHE=$cache timeout "$(left $d)" $B/megamoe bench --recipe $r --presets $p --tokens $tok --iters 50 \
        --json "$R/ab_${r}_${v}_r$round.json" > "$R/ab_${r}_${v}_r$round.txt" 2>&1
      echo "bench $r $v r$round rc=$? $(el)s"
    done
  done
}
ab bf16 $P 2048,4096,8192,16384,32768 220
ab fp8_block $P 2048,4096,8192,16384,32768 390
ab w4a16_nvfp4 gpt-oss-120b,mixtral-8x7b 4096,8192 415
grep -h "tactic table\|shipped" "$R"/ab_*_new_r1.txt | sort | uniq -c | head
echo "end $(el)s"
