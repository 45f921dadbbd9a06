#!/usr/bin/env bash
# Session 70: job3_flush.sh (the memset / read flush A/B, T = 1 timelines, run_bench under each flush)
# on an H200 only -- issues 14 and 15's GPU; call 2 ran it on an H100. On any other GPU nothing.
# Carry [".carry", ".peers"].
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash "$(dirname "$0")/job3_flush.sh"
fi
echo "not an H200: nothing run"
