#!/usr/bin/env bash
# Session 40, last job: the committed tree's megamoe (.carry/fin.tgz: the fused `split_large`, the
# re-tuned W4A16 table, the permute change) against 51a19be's (.carry/ship.tgz), and our bf16 against
# W4A16 at T = 2048 / 8192 in the same job. Carry [".carry"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/fin /tmp/ship && tar xzf .carry/fin.tgz -C /tmp/fin && tar xzf .carry/ship.tgz -C /tmp/ship || exit 1
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
timeout 60 /tmp/fin/megamoe bench --recipe bf16 --presets $PR --tokens 2048,8192 --iters 50 --json "$R/bf16.json" > "$R/bf16.log" 2>&1
echo "bf16 rc=$? $(( $(date +%s) - t0 ))s"
mkdir -p "$R/ab"
AB_VARIANTS="ship=/tmp/ship/megamoe fin=/tmp/fin/megamoe" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 170 \
  "mx=--recipe w4a16_mxfp4 --presets $PR --tokens 512,2048,8192 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $PR --tokens 2048,8192 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |T=|geomean|ALL|deadline|r[12] " "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
