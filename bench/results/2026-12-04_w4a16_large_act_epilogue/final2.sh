#!/usr/bin/env bash
# Session 40: the table as committed (deepseek-v3 T = 512 kept on `split_large` after final.sh measured
# the tune's `split_small` there at 0.963x): 51a19be against the committed megamoe (.carry/fin.tgz).
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/fin /tmp/ship && tar xzf .carry/fin.tgz -C /tmp/fin && tar xzf .carry/ship.tgz -C /tmp/ship || exit 1
mkdir -p "$R/ab"
AB_VARIANTS="ship=/tmp/ship/megamoe fin=/tmp/fin/megamoe" RUN_TIMEOUT=40 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 70 \
  "mx=--recipe w4a16_mxfp4 --presets deepseek-v3 --tokens 512 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets deepseek-v3 --tokens 512 --iters 50" > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |T=|geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
