#!/usr/bin/env bash
# Session 61: main at 1683a19 (the activation epilogues' arithmetic cut). Carry [".carry", ".peers"]:
# bld.txz = 1683a19. 1. kernel timelines of fp8_block `auto` at T = 8192 (where the time goes after
# the cut); 2. fp8_block `auto` against vLLM's Triton fused MoE and PyTorch, T = 128..8192; 3. the
# same for bf16 as far as the time allows.
set -u
source scripts/device_env.sh
carried_job_start
for p in deepseek-v3 qwen3-30b-a3b mixtral-8x7b gpt-oss-120b; do
  [ "$(left 150)" -lt 20 ] && { echo "skip tl $p (time)"; continue; }
  ktrace_bench "h100_$p" -- --recipe fp8_block --presets $p --tokens 8192
done
echo "timelines $(el)s"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
[ "$(left 420)" -gt 60 ] && timeout "$(left 420)" python3 bench/run_bench.py --build $B --recipe fp8_block --presets $P \
  --tokens 128,256,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" \
  > "$R/peers_fp8.txt" 2>&1
echo "peers fp8 rc=$? $(el)s"; grep -v "^\[" "$R/peers_fp8.txt" | tail -32
[ "$(left 575)" -gt 60 ] && timeout "$(left 575)" python3 bench/run_bench.py --build $B --recipe bf16 --presets $P \
  --tokens 128,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_bf16.json" \
  > "$R/peers_bf16.txt" 2>&1
echo "peers bf16 rc=$? $(el)s"; grep -v "^\[" "$R/peers_bf16.txt" | tail -30
echo "end $(el)s"
