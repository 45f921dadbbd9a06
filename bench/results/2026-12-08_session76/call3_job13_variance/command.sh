#!/usr/bin/env bash
# device call 3 (2026-12-08 ~00:44 UTC, asked for nvidia-h200, got an NVIDIA H100 80GB HBM3); carry [".carry", ".peers"]
# (job14_next.sh then ran job13_variance.sh on an H100: its H100 branch was changed to job 15 afterwards)
bash bench/results/2026-12-08_session76/job13_variance.sh
