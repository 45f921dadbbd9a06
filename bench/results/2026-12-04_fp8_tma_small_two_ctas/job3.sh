#!/usr/bin/env bash
# Session 36, after job2.sh: the tune of job2 merged where it moved a bucket by >= 1% (5 buckets:
# deepseek-v3 T = 256, gpt-oss-120b T = 256 / 512, mixtral-8x7b T = 256 / 512; the ties within 1% kept).
# A/B final (the 2-CTA kernel, table before the merge) against tuned (the same with the merged table),
# `auto` T = 256, 512, four presets, alternated, best of three. Binaries: .carry/{final,tuned}.tgz.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/final.tgz -C /tmp/base && tar xzf .carry/tuned.tgz -C /tmp/new || exit 1
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
RUN_TIMEOUT=60 scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 3 "$t0" 150 \
  "auto=--recipe fp8_block --presets $PR --tokens 256,512 --iters 50" | tee "$R/ab_compare.txt" | tail -n 14
echo "end $(( $(date +%s) - t0 ))s"
