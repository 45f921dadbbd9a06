#!/usr/bin/env bash
# Session 55's prepared next call, for whichever GPU comes: on an H100 the `auto` A/B of the H100 table
# entries tuned this session (job_ab.sh, ~540 s), on an H200 the chunked-epilogue A/B and the
# mixtral-8x7b bf16 re-tune (job_h200.sh, ~400 s). Before the call: scripts/slim_tree.sh on
# bench/results/2026-12-05_session55 (after it: scripts/slim_tree.sh off); carry [".carry", ".peers"] with
# .carry/bld.txz packed from wip/bf16-large-gather-chunked (its knobs off = main's kernels).
set -u
here=bench/results/2026-12-05_session55
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100; then
  exec bash "$here/job_ab.sh"
else
  exec bash "$here/job_h200.sh"
fi
