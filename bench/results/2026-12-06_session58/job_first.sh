#!/usr/bin/env bash
# Session 58, first call, for whichever GPU comes. Carry [".carry"]: bld.txz = wip/w4a16-four-decoders
# (12d809d, /work/carry-stash/four_v2.txz), main.txz = main's kernels (ad11127 = 9c9e7f3's kernels).
#  - an H200: session 56's job_tune_h200.sh with main's binary (`megamoe tune` of the H200's
#    T = 2048..8192 buckets; ~565 s);
#  - otherwise: session 57's job_four.sh (the second four-decoder form: tests, A/B main / off / four,
#    sanitizers; ~150 s).
set -u
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ "${SKIP_TUNE:-0}" = 0 ]; then
  cp .carry/main.txz .carry/bld.txz
  exec bash bench/results/2026-12-06_session56/job_tune_h200.sh
fi
exec bash bench/results/2026-12-06_session57/job_four.sh
