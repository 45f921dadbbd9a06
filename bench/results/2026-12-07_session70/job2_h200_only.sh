#!/usr/bin/env bash
# Session 70: the H200 jobs only. On an H200: session 67's job1_first.sh H200 branch (fp8_block / bf16
# re-tune at T = 2048..8192, BUDGET seconds); on any other GPU nothing (session 69's call 5 measured
# main's state against the peers on the H100). Carry [".carry", ".peers"].
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/2026-12-07_session67/job1_first.sh
fi
echo "not an H200: nothing run"
