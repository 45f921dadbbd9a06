#!/usr/bin/env bash
# Session 40, after job.sh: the W4A16 table re-measured with the fused `split_large` (same binary,
# .carry/la.tgz): `megamoe tune` mxfp4 and nvfp4, T = 256..8192, four presets. Carry [".carry"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/la
mkdir -p $B && tar xzf .carry/la.tgz -C $B || exit 1
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in qwen3-30b-a3b mixtral-8x7b deepseek-v3 gpt-oss-120b; do
    [ $(( $(date +%s) - t0 )) -gt 290 ] && { echo "skip $r $p (time)"; continue; }
    timeout 60 $B/megamoe tune --recipe $r --presets $p --tokens 256-8192 --iters 20 --rounds 2 \
      --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2> "$R/tune_${r}_$p.err"
    echo "tune $r $p rc=$? $(( $(date +%s) - t0 ))s"; grep -v "^$" "$R/tune_${r}_$p.txt" | tail -n 8
  done
done
echo "end $(( $(date +%s) - t0 ))s"
