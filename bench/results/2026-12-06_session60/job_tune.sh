#!/usr/bin/env bash
# Session 60: `megamoe tune` of fp8_block T = 2048..32768 on the four presets with a58ab09's kernels
# (the activation epilogue without a branch per element and with 16-byte code stores: split_tma_act
# gained 2-12% at T >= 4096 on one H100, so the tables' picks between split_tma / split_tma_act /
# CUTLASS's tile may move). Merge afterwards with scripts/merge_tune.py --min-gain 0.02.
# Carry [".carry"]: bld.txz = a58ab09.
set -u
source scripts/device_env.sh
carried_job_start
for p in mixtral-8x7b qwen3-30b-a3b deepseek-v3 gpt-oss-120b; do
  tune_until "fp8_$p" "${TUNE_END:-540}" --recipe fp8_block --presets $p --tokens 2048,4096,8192,16384,32768
done
echo "end $(el)s"
