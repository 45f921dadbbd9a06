#!/usr/bin/env bash
# Session 66, the first call that gets a machine: on an H200 the fp8_block / bf16 re-tune (job2), on
# an H100 the warpgroup-lead A/B (job1). Carry [".carry"]: bld.txz = wip/fp8-wg-lead-act bb11e3f,
# bld_main.txz = main ea25027.
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/2026-12-06_session66/job2_tune_h200.sh
fi
exec bash bench/results/2026-12-06_session66/job1_wg_lead.sh
