#!/usr/bin/env bash
# Session 70's last call. On an H200: job3_flush.sh (JB seconds, default 330). On an H100: does a
# clean L2 change which tactic wins at decode sizes? `megamoe tune` w4a16_mxfp4 T = 1 / 2 on
# deepseek-v3, gpt-oss-120b and mixtral-8x7b with MEGAMOE_BENCH_FLUSH=read, until TUNE_END seconds
# (default 170); its table gives each winner's speed-up over the shipped table's choice, measured under
# the read flush. Carry [".carry", ".peers"] (.carry/bld_main.txz = main's kernels).
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  JB=${JB:-330} exec bash "$(dirname "$0")/job3_flush.sh"
fi
set -u
source scripts/device_env.sh
CARRY_BLD=bld_main.txz carried_job_start
cat "$R/gpu.txt"
MEGAMOE_BENCH_FLUSH=read tune_until read_mx "${TUNE_END:-170}" --recipe w4a16_mxfp4 \
  --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b --tokens 1,2
echo "end $(el)s"
