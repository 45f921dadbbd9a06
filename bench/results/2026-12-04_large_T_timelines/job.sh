#!/usr/bin/env bash
# Session 40: where the time goes at T = 8192 (and 2048) as `auto` runs it, per kernel (ktrace), for
# bf16, fp8_block and w4a16_mxfp4 on the four presets, with the shipped build (.carry/ship.tgz: megamoe
# of 51a19be, the code of HEAD's kernels). Carry [".carry"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/ship && tar xzf .carry/ship.tgz -C /tmp/ship || exit 1
for r in bf16 fp8_block w4a16_mxfp4; do
  for p in deepseek-v3 qwen3-30b-a3b gpt-oss-120b mixtral-8x7b; do
    for T in 2048 8192; do
      scripts/ktrace/trace.sh $R/tl_${r}_${p}_$T -- /tmp/ship/megamoe bench --recipe $r --presets $p --tokens $T \
        --iters 50 --json $R/b_${r}_${p}_$T.json > /tmp/tl.txt
      echo "== $r $p T=$T rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^ +[0-9]+ |span" /tmp/tl.txt
    done
  done
done
echo "end $(( $(date +%s) - t0 ))s"
