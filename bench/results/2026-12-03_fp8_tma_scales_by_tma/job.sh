#!/usr/bin/env bash
# 2026-12-03 (session 31). The fp8 TMA kernel with its scales loaded by TMA (one 1-D box of 128
# token scales and two 16-byte weight-scale boxes a step, issued by the scale warp's lane 0) instead
# of 130 cp.async of 4 bytes, against the kernel without it (scales_by_tma.patch reversed): the 101
# fp8 GPU tests, racecheck / memcheck / synccheck on the two small fp8 GEMM tests, then
# `megamoe bench --tactic split_tma|split_tma_act` on the four presets at T = 128, 2048, 8192,
# base and new alternated, best of two. Run from the repository root:
#   git apply bench/results/2026-12-03_fp8_tma_scales_by_tma/scales_by_tma.patch
#   bash bench/results/2026-12-03_fp8_tma_scales_by_tma/job.sh
bash scripts/ab_fp8_tma_job.sh bench/results/2026-12-03_fp8_tma_scales_by_tma/scales_by_tma.patch 520
