#!/usr/bin/env bash
# Session 35: the merged tune (job.sh, 6 buckets changed) against the table before it, `auto`
# fp8_block at T = 1024..8192 on the three presets whose buckets changed, alternated, best of two.
# Binaries: .carry/head.tgz (7908d98), .carry/tuned.tgz (the CLI with the merged table).
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/head /tmp/tuned && tar xzf .carry/head.tgz -C /tmp/head && tar xzf .carry/tuned.tgz -C /tmp/tuned || exit 1
scripts/ab_bench.sh "$R" /tmp/head/megamoe /tmp/tuned/megamoe 2 "$t0" 300 \
  "fp8auto=--recipe fp8_block --presets qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 1024,2048,4096,8192 --iters 50" | tail -n 20
echo "end $(( $(date +%s) - t0 ))s"
