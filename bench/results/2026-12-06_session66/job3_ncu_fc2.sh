#!/usr/bin/env bash
# Session 66: session 65's prepared ncu job (W4A16 and bf16 GEMMs of mixtral-8x7b T = 8192: why the
# W4A16 TMA tactic's FC2 runs at 83% of the bf16 MMA rate against CUTLASS's bf16 FC2 at 98%) with
# main's binary (CARRY_BLD=bld_main.txz, main ea25027).
CARRY_BLD=bld_main.txz exec bash bench/results/2026-12-06_session65/job5_ncu_fc2_prepared.sh
