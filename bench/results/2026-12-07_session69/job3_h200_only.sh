#!/usr/bin/env bash
# Session 69's last call: on an H200, session 67's job1_first.sh (its H200 branch: the fp8_block / bf16
# re-tune at large T, BUDGET seconds); on any other GPU nothing (calls 2 / 4 / 5 ran the H100's jobs).
# Carry [".carry", ".peers"].
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/2026-12-07_session67/job1_first.sh
fi
echo "not an H200: nothing run"
