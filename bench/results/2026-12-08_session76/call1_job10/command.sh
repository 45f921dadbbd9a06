#!/usr/bin/env bash
# device call 1 (2026-12-08 00:27 UTC, asked for nvidia-h200, got an NVIDIA H100 80GB HBM3); carry [".carry", ".peers"]
bash bench/results/2026-12-07_session75/job10_next_first.sh
