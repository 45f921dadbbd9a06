#!/usr/bin/env bash
# Session 76's next call (the next session's first), either card. Carry [".carry", ".peers"]. On an H200: job 12 (the W4A16 and
# fp8_block tunes, `auto` shipped against the merged caches; AB_END 470), then job 13 (the clocks beside
# five processes of one cell, ~40 s; NO_VARIANCE=1 skips it). On an H100 (where job 12 and job 13 ran as calls 2 and 3): job 15
# (w4a16_mxfp4 T = 128..8192 with triton_kernels, our bf16 and PyTorch, ~330 s).
set -u
d=$(dirname "$0")
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  AB_END=${AB_END:-470} bash "$d/job12_tunes.sh"
  mv "$OUT/r.tgz" "$OUT/job12_r.tgz"
  if [ -z "${NO_VARIANCE:-}" ]; then bash "$d/job13_variance.sh"; fi
else
  bash "$d/job15_w4a16_mid.sh"
fi
