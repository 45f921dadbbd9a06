#!/usr/bin/env bash
# device call 2 (2026-12-08 ~00:40 UTC, asked for nvidia-h200, got an NVIDIA H100 80GB HBM3); carry [".carry", ".peers"]
bash bench/results/2026-12-08_session76/job12_tunes.sh
