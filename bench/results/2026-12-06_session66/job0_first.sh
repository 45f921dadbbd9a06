#!/usr/bin/env bash
# Session 66, the first call that gets a machine: on an H200 the fp8_block / bf16 re-tune (job2), on
# an H100 the warpgroup-lead A/B (job1). Carry [".carry"]: bld.txz = wip/fp8-wg-lead-act bb11e3f,
# bld_main.txz = main ea25027, bld_pass.txz = wip/w4a16-pass-units a47c15b.
# BUDGET: the seconds the call may run (default 560): the jobs' deadlines scale with it.
B0=${BUDGET:-560}
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  TUNE_END=$((B0 * 43 / 100)) BF16_END=$((B0 * 54 / 100)) AB_END=$B0 \
    exec bash bench/results/2026-12-06_session66/job2_tune_h200.sh
fi
JB=$B0 exec bash bench/results/2026-12-06_session66/job1_wg_lead.sh
