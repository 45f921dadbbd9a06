#!/usr/bin/env bash
# Prepared in session 57, not run yet: the W4A16 TMA tactic with four decoder warps, second form
# (MEGAMOE_W4A16_TMA_DECODERS=4, branch wip/w4a16-four-decoders at 12d809d): warps 0-3 each decode 2 of
# a step's 8 virtual warps (instead of warps 1-3 decoding 3 / 3 / 2); warp 0's lane 0, after its own
# waits for step i, issues step i + 1's token tile and step i + 2's codes (a cursor of their own). The
# first form issued step i + 1's codes, one step of lead for their trip from memory, and ran 0.78x
# (run3_four). Carry [".carry"]: bld.txz = the branch (/work/carry-stash/four_v2.txz), main.txz = main
# at ad11127 (/work/carry-stash/main_ad11127.txz), the baseline; the branch's knob-off form carries the
# issuer code in its decoder loop (24-40 bytes spilled), so it is a variant, not the baseline.
# The job is run 3's (job_four.sh, same knob, tests, A/B and sanitizers); only the carried binary differs.
exec bash bench/results/2026-12-06_session57/job_four.sh "$@"
