#!/usr/bin/env bash
# Session 70's first call. Carry [".carry", ".peers"] (.carry/bld.txz = the stagger build,
# .carry/bld_main.txz = main a395644's kernels = main's).
# On an H200: session 67's job1_first.sh H200 branch (fp8_block / bf16 re-tune at T = 2048..8192, the
# tuned table against the shipped one, BUDGET seconds). On an H100: session 69's job7_stagger.sh (the
# staggered-first-stage diagnostic for the W4A16 small tactic's one-wave FC1 at T = 1).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/2026-12-07_session67/job1_first.sh
fi
exec bash bench/results/2026-12-07_session69/job7_stagger.sh
