#!/usr/bin/env bash
# Session 67, the first call that gets a machine. Carry [".carry", ".peers"]: .carry/bld_main.txz = main
# a395644 (kernels as ccd86d4; scripts/pack_carry.sh), .peers/ = ../shared/peers/.
# On an H200: session 65's job1_tune.sh H200 branch (the H200's fp8_block entries at T = 2048..8192
# are session 59's, before sessions 60-61's activation epilogues): `megamoe tune` fp8_block T = 2048 /
# 4096 / 8192 on the four presets, bf16 qwen3-30b-a3b / gpt-oss-120b T = 4096 / 8192, the caches as
# one (tuned.json), `auto` with the shipped table against `auto` with tuned.json, alternated.
# On an H100: session 66's job5_peers.sh (vLLM at fp8_block T = 2048 / 8192, triton_kernels at
# w4a16_mxfp4 T = 8192), the peers session 66's runs lacked.
# BUDGET: the seconds the call may run (default 560); the deadlines scale with it.
B0=${BUDGET:-560}
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  CARRY_BLD=bld_main.txz H200_ONLY=1 TUNE_END=$((B0 * 43 / 100)) BF16_END=$((B0 * 54 / 100)) AB_END=$B0 \
    exec bash bench/results/2026-12-06_session65/job1_tune.sh
fi
exec bash bench/results/2026-12-06_session66/job5_peers.sh
