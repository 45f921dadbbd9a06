#!/usr/bin/env bash
# Session 37, after ../2026-12-04_fp8_small_T_tune_and_small_act/job.sh: the tactic split_tma_small_act
# in src/ and the fp8_block T = 128..1024 table merged from that job's tune (6 buckets; the ties within
# 1% and deepseek-v3 T = 128 / 256 kept). Binaries (CPU machine, stripped), carry [".carry", ".peers"]:
#   .carry/base.tgz  megamoe: f2193b5 + the merged T <= 64 table (the previous job's "tuned")
#   .carry/new.tgz   megamoe: the same + split_tma_small_act + the merged T = 128..1024 table
# 1. A/B base vs new, `auto`, fp8_block, T = 128..1024, four presets, alternated, best of three;
# 2. new against vLLM's Triton fused MoE and PyTorch, fp8_block, T = 128..2048 (the README rows).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/new.tgz -C /tmp/new || exit 1
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" /tmp/base/megamoe /tmp/new/megamoe 3 "$t0" 200 \
  "auto=--recipe fp8_block --presets $PR --tokens 128,256,512,1024 --iters 50" | tee "$R/ab/ab_compare.txt" | tail -n 20
echo "part 1 end $(( $(date +%s) - t0 ))s"
timeout 150 python3 bench/run_bench.py --build /tmp/new --recipe fp8_block --backends auto \
  --presets $PR --tokens 128,256,512,1024,2048 --iters 50 \
  --vllm-peer .peers/vllm_triton_moe.py --out "$R/fp8_block_vs_vllm.json" > "$R/fp8_block_vs_vllm.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^sm90|geomean" "$R/fp8_block_vs_vllm.log"
echo "end $(( $(date +%s) - t0 ))s"
