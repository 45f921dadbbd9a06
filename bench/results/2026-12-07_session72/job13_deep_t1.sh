#!/usr/bin/env bash
# Session 72, after job11 (H100: deep ring 1.070x at gpt-oss-120b T = 1, 0.928x at qwen3-30b-a3b T = 1):
# base / deep (MEGAMOE_W4A16_SMALL_DEEP=1) over T = 1 / 2, mxfp4 and nvfp4, four presets, and the
# qwen3-30b-a3b T = 1 timelines, to see which GEMM the deep ring slows there. Carry [".carry"] (bld_pfdeep.txz).
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_pfdeep.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-150}
G="--recipe w4a16_mxfp4 --tokens 1 --presets qwen3-30b-a3b"
ktrace_bench qbase -- $G
MEGAMOE_W4A16_SMALL_DEEP=1 ktrace_bench qdeep -- $G
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
ab_variants "base=$B/megamoe deep=$B/megamoe@MEGAMOE_W4A16_SMALL_DEEP=1" \
  80 $((JB - 5)) "mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2 --iters 100" "nv=--recipe w4a16_nvfp4 --presets $P4 --tokens 1,2 --iters 100"
echo "end $(el)s"
