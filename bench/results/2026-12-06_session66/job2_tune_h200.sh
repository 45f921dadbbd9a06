#!/usr/bin/env bash
# Session 66, call 2 (H200 only): session 65's job1_tune.sh H200 branch (fp8_block tune T = 2048..8192
# on the four presets, bf16 qwen3-30b-a3b / gpt-oss-120b T = 4096 / 8192, then the tuned cache against
# the shipped table) with main's binary: CARRY_BLD=bld_main.txz (main ea25027; kernels as ccd86d4).
CARRY_BLD=bld_main.txz H200_ONLY=1 exec bash bench/results/2026-12-06_session65/job1_tune.sh
