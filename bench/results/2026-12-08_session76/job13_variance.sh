#!/usr/bin/env bash
# Session 76: why one cell moves between processes. Carry [".carry"] (.carry/bld_table75.txz, main's library).
# Call 2 timed fp8_block mixtral-8x7b T = 2048 at 1.548 / 1.743 / 1.742 / 1.716 ms in four processes of
# the same binary, tactic and synthetic data (seed 1), on an H100; sessions 59 / 66 saw deepseek-v3
# fp8_block T = 8192 and qwen3-30b-a3b T = 8192 move 5-15% the same way. Here: the GPU's clocks, power
# and throttle reasons sampled every 100 ms (nvidia-smi) beside five traced processes of that cell (200
# replays each: per replay, per kernel, from the CSV) and three untraced ones of deepseek-v3 T = 8192, each
# process's wall-clock start / end logged, so a slow process can be matched with the clocks (power or
# heat) or found at the same clocks (then the data's placement in memory is the next suspect). ~90 s.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_table75.txz} carried_job_start
cat "$R/gpu.txt"
mkdir -p "$R/var"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,temperature.memory,clocks_throttle_reasons.active \
  --format=csv,nounits -lms 100 > "$R/var/smi.csv" 2>&1 &
smi=$!
sleep 1
for i in 1 2 3 4 5; do
  echo "mx $i start $(date +%s.%N)" >> "$R/var/stamps.txt"
  TRACE_TIMEOUT=60 scripts/ktrace/trace.sh "$R/var/tl_mx$i" -- $B/megamoe bench --recipe fp8_block --presets mixtral-8x7b \
    --tokens 2048 --iters 200 --json "$R/var/b_mx$i.json" > /dev/null
  rc=$?
  echo "mx $i end $(date +%s.%N) rc=$rc" >> "$R/var/stamps.txt"
  echo "mx $i $(python3 -c "import json;x=json.load(open('$R/var/b_mx$i.json'))[0];print(x['tactic'],round(x['median_ms']*1000,1),'us')" 2>&1) $(el)s"
done
for i in 1 2 3; do
  echo "ds $i start $(date +%s.%N)" >> "$R/var/stamps.txt"
  timeout 60 $B/megamoe bench --recipe fp8_block --presets deepseek-v3 --tokens 8192 --iters 100 \
    --json "$R/var/b_ds$i.json" > "$R/var/b_ds$i.log" 2>&1
  rc=$?
  echo "ds $i end $(date +%s.%N) rc=$rc" >> "$R/var/stamps.txt"
  echo "ds $i $(python3 -c "import json;x=json.load(open('$R/var/b_ds$i.json'))[0];print(x['tactic'],round(x['median_ms']*1000,1),'us')" 2>&1) $(el)s"
done
sleep 1
kill $smi 2>/dev/null
wait $smi 2>/dev/null
echo "smi samples $(wc -l < "$R/var/smi.csv")"
echo "end $(el)s"
