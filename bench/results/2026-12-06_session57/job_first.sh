#!/usr/bin/env bash
# Session 57, a call for whichever GPU comes (carry [".carry"] = the binary of wip/session57-ab):
#  - an H200: session 56's job_tune_h200.sh (`megamoe tune` of the H200's T = 2048..8192 buckets; ~565 s);
#  - otherwise: job_ab.sh (the two A/B knobs).
set -u
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ "${SKIP_TUNE:-0}" = 0 ]; then
  exec bash bench/results/2026-12-06_session56/job_tune_h200.sh
fi
exec bash bench/results/2026-12-06_session57/job_ab.sh
