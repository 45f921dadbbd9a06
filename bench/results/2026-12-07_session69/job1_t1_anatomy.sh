#!/usr/bin/env bash
# Session 69: where the W4A16 small tactic's time goes at T = 1 on the three presets of issue 15's
# 75%-of-floor target, with the loads in three forms that main's binary already has (knobs): the TMA
# form (default: 8 K steps a stage, two stages, two CTAs per SM), the TMA form with 4 K steps a stage
# (MEGAMOE_W4A16_SMALL_TMA=2: a deeper ring of smaller stages) and the cp.async form (TMA=0: every
# thread copies, three CTAs per SM), each with K whole (split_small_k1) and in two parts
# (split_small_k2: twice the CTAs). If the GEMMs' durations move with neither the ring nor the CTA
# count, the limit is not a CTA's pipeline. Kernel timelines (ktrace) only. Carry [".carry"]:
# .carry/bld_main.txz = main a395644 (kernels as ccd86d4). ~120 s.
set -u
CARRY_BLD=${CARRY_BLD:-bld_main.txz}
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
for p in gpt-oss-120b deepseek-v3 mixtral-8x7b; do
  for form in tma8:1 tma4:2 cpasync:0; do
    IFS=: read -r name knob <<< "$form"
    for k in k1 k2; do
      MEGAMOE_W4A16_SMALL_TMA=$knob ktrace_bench "${p}_${name}_$k" -- --recipe w4a16_mxfp4 --presets $p --tokens 1 \
        --tactic split_small_$k
    done
  done
done
echo "end $(el)s"
