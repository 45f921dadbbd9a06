#!/usr/bin/env bash
# A/B of the fp8 TMA kernel in clusters of two CTAs with the token boxes multicast (2026-12-03,
# session 30). Run from the repository root with the change in the working tree (new);
# ab_build.sh builds the base with cluster_multicast.patch reversed. Correctness (every fp8 GPU
# test; racecheck / memcheck / synccheck on the small fp8 GEMM tests), then the forced-tactic A/B,
# base and new alternated, best of two.
# (scripts/ab_fp8_tma_job.sh runs the same ab_job.sh call: the fp8 tests and cells of every fp8 TMA A/B)
bash scripts/ab_fp8_tma_job.sh bench/results/2026-12-03_fp8_tma_cluster_multicast/cluster_multicast.patch 370
