#!/usr/bin/env bash
# 2026-12-03 (session 33). The fp8 TMA kernel's kF32 / kBf16 epilogue through per-warp shared-memory
# slabs and bulk copies (store_d_staged; 5 stages for bf16 D, 4 for fp32 D) against direct stores
# (6 stages), on one H200: scripts/ab_fp8_tma_job.sh (fp8 GPU tests with the new pitched-rows test,
# racecheck / memcheck / synccheck on the small fp8 GEMM tests, forced split_tma / split_tma_act at
# T = 128, 2048, 8192, alternated, best of two), then `auto` of the base tree (the shipped table with
# split_tma_act_large_fc2, 8c59874) against vLLM's Triton fused MoE and PyTorch at T = 128..8192.
# Run from the repository root with the patch applied (the working tree):
#   bash bench/results/2026-12-03_fp8_tma_staged_epilogue/job.sh
set -u
D=bench/results/2026-12-03_fp8_tma_staged_epilogue
bash scripts/ab_fp8_tma_job.sh $D/staged_epilogue.patch 400
mv "$OUT/r.tgz" "$OUT/ab.tgz"  # the A/B's folder; the peer run below tars its own r.tgz
source scripts/device_env.sh
t0=$(date +%s)
timeout 150 python3 bench/run_bench.py --build /tmp/build-base --recipe fp8_block --backends auto \
  --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,512,2048,4096,8192 --iters 50 \
  --vllm-peer .peers/vllm_triton_moe.py --out "$R/peer_shipped.json" > "$R/peer_shipped.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/peer_shipped.log"
