#!/usr/bin/env bash
# Session 41: where W4A16 decode (T = 1, 8, 64) spends its time as `auto` runs it, per kernel (ktrace),
# against bf16 on the three presets of issue 15's floor target (deepseek-v3, gpt-oss-120b, mixtral-8x7b).
# .carry/new.tgz: megamoe of c499b6a. Carry [".carry"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new && tar xzf .carry/new.tgz -C /tmp/new || exit 1
for r in w4a16_mxfp4 bf16; do
  for p in deepseek-v3 gpt-oss-120b mixtral-8x7b; do
    for T in 1 8 64; do
      scripts/ktrace/trace.sh $R/tl_${r}_${p}_$T -- /tmp/new/megamoe bench --recipe $r --presets $p --tokens $T \
        --iters 50 --json $R/b_${r}_${p}_$T.json > /tmp/tl.txt
      echo "== $r $p T=$T rc=$? $(( $(date +%s) - t0 ))s $(python3 -c "import json;x=json.load(open('$R/b_${r}_${p}_$T.json'))[0];print(x['tactic'],round(x['median_ms']*1000,1),'us floor',round(x.get('floor_ms',0)*1000,1))")"
      grep -E "^ +[0-9]+ |span" /tmp/tl.txt
    done
  done
done
echo "end $(( $(date +%s) - t0 ))s"
