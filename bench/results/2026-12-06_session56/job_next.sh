#!/usr/bin/env bash
# Session 56, for whichever GPU comes (the binary of main at the H100 table merge, .carry/bld.txz):
#  - an H200: job_tune_h200.sh (the H200's T = 2048..8192 buckets re-tuned after the bf16 large-T
#    GEMM's and the staged epilogues' changes; ~565 s);
#  - an H100: `auto` with the H100 entries shipped this session against vLLM's Triton fused MoE and
#    PyTorch at T = 128..1024, bf16 and fp8_block, four presets (~300 s; README's H100 rows).
# Carry [".carry", ".peers"].
set -u
here=bench/results/2026-12-06_session56
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100; then
  exec bash "$here/job_tune_h200.sh"
fi
source scripts/device_env.sh
carried_job_start
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for r in bf16 fp8_block; do
  [ "$(left 560)" -lt 40 ] && { echo "skip $r (time)"; continue; }
  timeout "$(left 560)" python3 bench/run_bench.py --build "$B" --recipe $r --presets $P --tokens 128,256,512,1024 \
    --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_$r.json" > "$R/peers_$r.txt" 2>&1
  echo "bench $r rc=$? $(el)s"; grep -iE "geomean|faster" "$R/peers_$r.txt" | head -6
done
echo "end $(el)s"
