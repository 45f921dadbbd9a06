#!/usr/bin/env bash
# Session 60: `megamoe tune` of bf16 T = 128..2048 on the four presets (the H100's entries there come
# from session 55; run 8 had qwen3-30b-a3b T = 1024 at 0.99x vLLM). Carry [".carry"]: bld.txz = main.
set -u
source scripts/device_env.sh
carried_job_start
for p in qwen3-30b-a3b mixtral-8x7b gpt-oss-120b deepseek-v3; do
  tune_until "bf16_$p" "${TUNE_END:-200}" --recipe bf16 --presets $p --tokens 128,256,512,1024,2048
done
echo "end $(el)s"
