#!/usr/bin/env bash
# 2026-12-03 (session 32). The standard A/B of scales_by_tma_aligned.patch: every scale box starts
# on a 16-byte aligned element (probe/run1: an fp32 box from any other element is an illegal
# instruction), consumers read from (element & 3). From the repository root, patch applied:
#   bash bench/results/2026-12-03_fp8_tma_scales_by_tma/job3.sh
bash scripts/ab_fp8_tma_job.sh bench/results/2026-12-03_fp8_tma_scales_by_tma/scales_by_tma_aligned.patch 480
