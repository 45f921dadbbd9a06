#!/usr/bin/env bash
# Prepared in session 35 (no device time left), not yet run. The README's fp8_block and bf16 rows
# against vLLM's Triton fused MoE and PyTorch (T = 128..2048) were measured at aac9303 (session 34);
# since then the activation / quantizer arithmetic (83ec228), the route plan (7908d98) and the
# fp8_block table at T >= 1024 (310bf54) changed. This re-measures both recipes at HEAD, then the
# README rows can be replaced (the old ones move to BENCHMARKS' "README result rows by run").
# Binary: the CLI of HEAD built on the CPU machine:
#   (cd <build dir> && ninja megamoe_cli) && mkdir -p /tmp/h && cp <build dir>/megamoe /tmp/h/ && strip /tmp/h/megamoe
#   tar czf .carry/head.tgz -C /tmp/h megamoe
# Run from the repository root with carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head && tar xzf .carry/head.tgz -C /tmp/head || exit 1
for r in fp8_block bf16; do
  timeout 240 python3 bench/run_bench.py --build /tmp/head --recipe $r --backends auto \
    --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,256,512,1024,2048 --iters 50 \
    --vllm-peer .peers/vllm_triton_moe.py --out "$R/${r}_vs_vllm.json" > "$R/${r}_vs_vllm.log" 2>&1
  echo "$r peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/${r}_vs_vllm.log"
done
echo "end $(( $(date +%s) - t0 ))s"
