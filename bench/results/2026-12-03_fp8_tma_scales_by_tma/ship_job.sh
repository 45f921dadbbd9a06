#!/usr/bin/env bash
# Only if job.sh's A/B shows a gain beyond the identical kernel's spread: the working tree with
# scales_by_tma.patch applied, the whole GPU test binary, `megamoe tune --recipe fp8_block` at
# T = 128..8192 (merge into src/core/tactics_default.cpp with
# `python3 scripts/merge_tune.py <r>/tune_fp8.json --buckets 128-8192`), then `auto` with that cache
# against vLLM's Triton fused MoE and PyTorch (`.peers/` holds a copy of ../shared/peers/).
# Written 2026-12-03 (session 31), not run.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
MEGAMOE_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" scripts/device_build.sh "$BN" megamoe_cli megamoe_gpu_tests \
  > "$R/build.log" 2>&1 || { tail -n 30 "$R/build.log" "$BN.build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
timeout 200 "$BN/megamoe_gpu_tests" --gtest_brief=1 > "$R/gpu_tests.log" 2>&1
echo "GPU tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" "$R/gpu_tests.log" | head -8
timeout 200 "$BN/megamoe" tune --recipe fp8_block --tokens 128,256,512,1024,2048,4096,8192 --iters 30 \
  --cache "$R/tune_fp8.json" > "$R/tune_fp8.txt" 2> "$R/tune_fp8.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat "$R/tune_fp8.txt"
MEGAMOE_TACTIC_CACHE="$R/tune_fp8.json" timeout 150 python3 bench/run_bench.py --build "$BN" --recipe fp8_block \
  --backends auto --presets deepseek-v3,qwen3-30b-a3b,mixtral-8x7b --tokens 128,512,2048,8192 --iters 50 \
  --vllm-peer .peers/vllm_triton_moe.py --out "$R/peer_tuned.json" > "$R/peer_tuned.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 16 "$R/peer_tuned.log"
