#!/usr/bin/env bash
# 2026-12-03 (session 34), last job: bf16 `auto` (shipped table) against vLLM's Triton fused MoE and
# PyTorch at T = 128..2048, the first bf16 run with the bench's 50 ms warm-up per cell (ac8b651): the
# previous bf16 runs had the same cold first cell per preset as fp8_block's qwen3-30b-a3b T = 128.
# Binary: .carry/base.tgz (HEAD aac9303). Run from the repository root.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base && tar xzf .carry/base.tgz -C /tmp/base || exit 1
timeout 200 python3 bench/run_bench.py --build /tmp/base --recipe bf16 --backends auto \
  --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,256,512,1024,2048 --iters 50 \
  --vllm-peer .peers/vllm_triton_moe.py --out "$R/bf16_vs_vllm.json" > "$R/bf16_vs_vllm.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/bf16_vs_vllm.log"
