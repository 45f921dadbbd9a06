#!/usr/bin/env bash
# Session 60: `megamoe tune` of fp8_block T = 128..1024 on the four presets after the activation
# epilogue changes (the Narrow kernel's epilogue lost its branches too; WidePaired's stores its codes
# 16 bytes at a time): the H100's entries there come from session 55's tune. Carry [".carry"].
set -u
source scripts/device_env.sh
carried_job_start
for p in qwen3-30b-a3b mixtral-8x7b gpt-oss-120b deepseek-v3; do
  tune_until "fp8s_$p" "${TUNE_END:-300}" --recipe fp8_block --presets $p --tokens 128,256,512,1024
done
echo "end $(el)s"
