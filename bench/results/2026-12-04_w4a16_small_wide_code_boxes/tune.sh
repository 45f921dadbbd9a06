#!/usr/bin/env bash
# Session 41, after job.sh (the small tactic's 128-byte code boxes, 1.072x): the W4A16 tables re-tuned at
# T = 1..256, four presets, both formats, so the k1 / k2 / small / large / mega choices follow the faster
# small tactic. .carry/new.txz: megamoe of 5fd2877. Merged with scripts/merge_tune.py --buckets 1-256.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new && tar xJf .carry/new.txz -C /tmp/new || exit 1
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in deepseek-v3 gpt-oss-120b mixtral-8x7b qwen3-30b-a3b; do
    [ $(( $(date +%s) - t0 )) -gt 400 ] && { echo "skip $r $p (time)"; continue; }
    MEGAMOE_TACTIC_CACHE=off timeout 90 /tmp/new/megamoe tune --recipe $r --presets $p --tokens 1-256 --iters 20 --rounds 2 \
      --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2> "$R/tune_${r}_$p.err"
    echo "tune $r $p rc=$? $(( $(date +%s) - t0 ))s"
  done
done
echo "end $(( $(date +%s) - t0 ))s"
