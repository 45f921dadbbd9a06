#!/usr/bin/env bash
# Session 55, on the H200 when no H100 came: the chunked-epilogue knobs' A/B (as the chunked job's `ab`
# phase, bench/results/2026-12-05_bf16_large_chunked_epilogue_prepared/job.sh, until 170 s), then
# job_next.sh's mixtral-8x7b bf16 re-tune of the 16384 / 32768 buckets (until 400 s). Carry [".carry"].
set -u
source scripts/device_env.sh
carried_job_start
P=qwen3-30b-a3b,deepseek-v3,gpt-oss-120b,mixtral-8x7b
AB_END=170 knob_ab MEGAMOE_BF16_LARGE_TMA_CHUNKED "off=0@MEGAMOE_W4A16_LARGE_TMA_CHUNKED=0 on=1@MEGAMOE_W4A16_LARGE_TMA_CHUNKED=1" 150 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50" \
  "w4=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50"
echo "ab end $(el)s"
timeout "$(left 400)" $B/megamoe tune --recipe bf16 --presets mixtral-8x7b --tokens 16384,32768 --iters 50 --rounds 2 \
  --cache "$R/tune_bf16_mixtral-8x7b_large.json" > "$R/tune_bf16_mixtral-8x7b_large.txt" 2>&1
echo "tune rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_bf16_mixtral-8x7b_large.txt" | grep -E "^mixtral-8x7b " | cut -c1-200
echo "end $(el)s"
