#!/usr/bin/env bash
# Written 2026-12-03 (session 30), not run. The fp8 TMA kernel with two temporaries per consumer
# thread (step kt + 1's MMAs issued before step kt's are waited for and promoted) against the shipped
# kernel: the 101 fp8 GPU tests, racecheck / memcheck / synccheck on the two small fp8 GEMM tests,
# then `megamoe bench --tactic split_tma|split_tma_act` on the four presets at T = 128, 2048, 8192,
# base and new alternated, best of two. Run from the repository root after
#   git apply bench/results/2026-12-03_fp8_tma_two_temporaries/two_temporaries.patch
# (scripts/ab_fp8_tma_job.sh runs the same ab_job.sh call: the fp8 tests and cells of every fp8 TMA A/B)
bash scripts/ab_fp8_tma_job.sh bench/results/2026-12-03_fp8_tma_two_temporaries/two_temporaries.patch 520
