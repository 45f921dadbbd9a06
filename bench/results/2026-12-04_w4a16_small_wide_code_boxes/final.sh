#!/usr/bin/env bash
# Session 41, after tune.sh: the merged W4A16 table (31 buckets at T = 1..256) against 5fd2877's, `auto`,
# mxfp4 / nvfp4, four presets, best of two; then the committed state as users run it: mxfp4 `auto` against
# OpenAI's triton_kernels, our bf16 and the PyTorch dequantize pipeline at T = 1..64 (run_bench records all).
# .carry/new.txz: megamoe of 5fd2877; .carry/tab.txz: megamoe with the merged table. Carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new /tmp/tab && tar xJf .carry/new.txz -C /tmp/new && tar xJf .carry/tab.txz -C /tmp/tab || exit 1
mkdir -p "$R/ab"
scripts/ab_bench.sh "$R/ab" /tmp/new/megamoe /tmp/tab/megamoe 2 "$t0" 260 \
  "mx=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-256 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-256 --iters 50" 2>&1 | grep -E "geomean|ALL|speed-up 0\.9[0-7]"
echo "ab $(( $(date +%s) - t0 ))s"
timeout 240 python3 bench/run_bench.py --build /tmp/tab --recipe w4a16_mxfp4 --backends auto \
  --presets deepseek-v3,gpt-oss-120b --tokens 1,2,4,8,16,32,64 --iters 50 \
  --triton-kernels-peer .peers/triton_kernels_moe.py --out "$R/tk_mxfp4_decode.json" > "$R/tk_mxfp4_decode.log" 2>&1
echo "tk rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^sm90|geomean" "$R/tk_mxfp4_decode.log" | cut -c1-170
echo "end $(( $(date +%s) - t0 ))s"
