#!/usr/bin/env bash
# Prepared for the next session's first call. Carry [".carry", ".peers"] (.carry/bld.txz = wip/deep-ring
# 6629f70's build, .carry/bld_main.txz = main a395644's kernels).
# On an H200: job3_flush.sh (the memset / read flush A/B, T = 1 timelines and run_bench under both
# flushes with triton_kernels, on issues 14 / 15's GPU; JB default 330 there) with .carry/bld.txz,
# whose `megamoe` takes --l2-flush.
# On an H100: job7_deep_ring.sh (the deep ring's tests, timelines, A/B under both flushes, sanitizers;
# JB default 300 there).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  JB=${JB:-330} exec bash "$(dirname "$0")/job3_flush.sh"
fi
JB=${JB:-300} exec bash "$(dirname "$0")/job7_deep_ring.sh"
