#!/usr/bin/env bash
# Session 39, the last device minutes: the README's decode rows (T = 1..64) with the current tables
# (bf16: split_tma_small in the table since 8e2b341; fp8_block: re-tuned in session 37, f09d018), against
# vLLM's Triton fused MoE and PyTorch. Binary: .carry/ship.tgz (51a19be). Carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/ship
mkdir -p $B && tar xzf .carry/ship.tgz -C $B || exit 1
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for r in bf16 fp8_block; do
  timeout 95 python3 bench/run_bench.py --build $B --recipe $r --backends auto --presets $PR \
    --tokens 1,2,4,8,16,32,64 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/${r}_decode_vs_vllm.json" \
    > "$R/${r}_decode_vs_vllm.log" 2>&1
  echo "$r rc=$? $(( $(date +%s) - t0 ))s"; tail -n 31 "$R/${r}_decode_vs_vllm.log" | cut -c1-150
done
echo "end $(( $(date +%s) - t0 ))s"
