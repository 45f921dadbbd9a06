#!/usr/bin/env bash
# Session 69, prepared for the next session (not run): is the one-wave FC1 at T = 1 (deepseek-v3: 77% of
# the DRAM peak alone, 93% with ~12 waves at T = 16, call 8) slowed by CTAs that ask for their stages
# at the same moments? stagger.patch (beside this script, against 3d35c45 = branch wip/stagger):
# MEGAMOE_W4A16_SMALL_STAGGER=1 gives the CTAs whose linear index / SM count is odd (roughly the second
# CTA of each SM) a first stage of half the steps, so they run half a stage out of step with the rest;
# =2 does it to every odd CTA (the tests' grids are small). Build: `git apply stagger.patch`,
# `scripts/pack_carry.sh`, `git checkout src`. Carry [".carry"]: .carry/bld.txz = that build,
# .carry/bld_main.txz = main a395644 (the baseline: the patch's kernel differs with the knob off too,
# and a small change of this loop cost 3.4% in call 9). Runs job6_pairs.sh's steps (tests, T = 1
# timelines, three-binary A/B, sanitizers) for this knob, JB = 220 s unless set. Reading: if FC1 at
# deepseek-v3 T = 1 (57 us in the timeline) gets faster with STAGGER=1 despite its half-wasted first
# stages, CTAs in step cost it.
KNOB=MEGAMOE_W4A16_SMALL_STAGGER NAME=stagger TEST_VALUE=2 AB_VALUE=1 PRESETS="deepseek-v3 mixtral-8x7b gpt-oss-120b" \
  JB=${JB:-220} exec bash "$(dirname "$0")/job6_pairs.sh"
