#!/usr/bin/env bash
# 2026-12-03 (session 33), on one H200 with binaries built on the CPU machine (build-h6 at 8c59874 +
# the pitched-rows test; carried as .carry/bins.tgz, unpacked to /tmp/carry): the fp8 GEMM tests (Fp8Gemm.*, with the new
# PitchedRowsSmall) and memcheck on that test; then bf16 at T = 128..8192, last measured against
# vLLM on 2026-12-01 (f45c05d): `auto` with the shipped table against vLLM's Triton fused MoE and
# PyTorch, `megamoe tune --recipe bf16 --rounds 2` at those T, and `auto` again with the tune's
# results as the table (MEGAMOE_TACTIC_CACHE).
# Run from the repository root: bash bench/results/2026-12-03_bf16_prefill_tune_vs_vllm/job.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/carry && tar xzf .carry/bins.tgz -C /tmp/carry || exit 1
B=/tmp/carry
timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*' > "$R/tests_fp8gemm.log" 2>&1
echo "Fp8Gemm rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_fp8gemm.log" | head
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='Fp8Gemm.PitchedRowsSmall' > "$R/san_memcheck_pitched.log" 2>&1
echo "memcheck rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/san_memcheck_pitched.log" | head -3
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
TOK=128,256,512,1024,2048,4096,8192
timeout 200 python3 bench/run_bench.py --build $B --recipe bf16 --backends auto --presets $PR --tokens $TOK --iters 50 \
  --vllm-peer .peers/vllm_triton_moe.py --out "$R/peer_before.json" > "$R/peer_before.log" 2>&1
echo "peer before rc=$? $(( $(date +%s) - t0 ))s"; tail -n 32 "$R/peer_before.log"
timeout 150 $B/megamoe tune --recipe bf16 --presets $PR --tokens $TOK --iters 30 --rounds 2 \
  --cache "$R/tune_bf16_128-8192.json" > "$R/tune.log" 2> "$R/tune.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat "$R/tune.log"
MEGAMOE_TACTIC_CACHE="$R/tune_bf16_128-8192.json" timeout 120 python3 bench/run_bench.py --build $B --recipe bf16 \
  --backends auto --presets $PR --tokens $TOK --iters 50 --out "$R/auto_tuned.json" > "$R/auto_tuned.log" 2>&1
echo "auto tuned rc=$? $(( $(date +%s) - t0 ))s"; tail -n 32 "$R/auto_tuned.log"
