#!/usr/bin/env bash
# Session 55: `auto` with the H100 table entries merged this session (new: the table after
# `scripts/merge_tune.py run1/tune_bf16_small_*.json run2/tune_*.json --add --min-gain 0.02`) against the
# table before the merge (old), both given to the same binary (.carry/bld.txz) as tactic caches keyed to
# this H100 (scripts/table_as_cache.py), so no kernel differs; alternating, two rounds, at the buckets
# whose tactic changed: bf16 and fp8_block T = 1 .. 1024 on the four presets, w4a16_nvfp4 T = 2, 512,
# 8192 and w4a16_mxfp4 T = 8. Carry [".carry"]. Ends by ~540 s; BF16_END / FP8_END / NV_END / MX_END (seconds into the job) shorten it. Compare: python3 scripts/ab_compare.py r/ab old new
set -u
source scripts/device_env.sh
carried_job_start
grep -q H100 "$R/gpu.txt" || { echo "not an H100: $(cat "$R/gpu.txt")"; exit 0; }
D=$(pwd)/bench/results/2026-12-05_session55
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
ab() {  # ab NAME RECIPE PRESETS TOKENS DEADLINE
  local n=$1 r=$2 p=$3 tok=$4 d=$5 round v
  for round in 1 2; do
    for v in old new; do
      [ "$(left $d)" -lt 15 ] && { echo "skip $n $v r$round (time)"; continue; }
      MEGAMOE_TACTIC_CACHE=$D/${v}_table_as_h100_cache.json timeout "$(left $d)" $B/megamoe bench --recipe $r \
        --presets $p --tokens $tok --iters 50 --json "$R/ab/${v}_${n}_r$round.json" > "$R/ab/${v}_${n}_r$round.log" 2>&1
      echo "bench $n $v r$round rc=$? $(el)s"
    done
  done
}
ab bf16 bf16 $P 1,2,4,8,16,32,64,128,256,512,1024 ${BF16_END:-230}
ab fp8 fp8_block $P 1,4,8,16,32,64,128,256,512,1024 ${FP8_END:-450}
ab nv w4a16_nvfp4 deepseek-v3,gpt-oss-120b 2,512,8192 ${NV_END:-510}
ab mx w4a16_mxfp4 qwen3-30b-a3b 8 ${MX_END:-540}
grep -h "tactic cache\|tactic table" "$R"/ab/new_*_r1.log | sort | uniq -c | head
python3 scripts/ab_compare.py "$R/ab" old new 2>&1 | tail -60
echo "end $(el)s"
