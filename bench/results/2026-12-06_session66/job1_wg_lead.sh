#!/usr/bin/env bash
# Session 66, call 1: session 65's prepared warpgroup-lead job (wip/fp8-wg-lead 97b5540 against main)
# as it stands, on whichever GPU comes. Carry [".carry"]: bld.txz = the branch, bld_main.txz = main ea25027.
JB=${JB:-540} exec bash bench/results/2026-12-06_session65/job6_wg_lead_prepared.sh
