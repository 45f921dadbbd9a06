#!/usr/bin/env bash
# Session 56, the last ~290 s of device time: on an H200 only, `megamoe tune` of bf16 at T = 8192 on
# the four presets (the bucket of issue 14's 70% target; the H200's entry predates the bf16 GEMM's
# dynamic order, staged epilogue and pass groups). On any other GPU it exits at once. Carry [".carry"].
set -u
source scripts/device_env.sh
carried_job_start
grep -q H200 "$R/gpu.txt" || { echo "not an H200: $(cat "$R/gpu.txt")"; exit 0; }
tune_until bf16_8192 200 --recipe bf16 --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 8192
echo "end $(el)s"
