#!/usr/bin/env bash
# Ran 2026-12-03 (session 30: run1/, README). Run from the repository root after
#   git apply bench/results/2026-12-03_fp8_tma_k_rotation/k_rotation.patch
# ab_build builds the base with the patch reversed. Correctness (the fp8 GPU tests: the K blocks are
# summed in a rotated order now, so results move in the last bits but must stay within tolerance and
# bitwise repeatable; sanitizers on the small fp8 GEMM tests), then the forced-tactic A/B, best of two.
# (scripts/ab_fp8_tma_job.sh runs the same ab_job.sh call: the fp8 tests and cells of every fp8 TMA A/B)
bash scripts/ab_fp8_tma_job.sh bench/results/2026-12-03_fp8_tma_k_rotation/k_rotation.patch 520
