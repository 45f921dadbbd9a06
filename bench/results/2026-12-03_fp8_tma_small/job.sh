#!/usr/bin/env bash
# 2026-12-03 (session 33). fp8_block tactic split_tma_small (the TMA kernel with one consumer
# warpgroup, 64-token passes, 8 stages; Geometry<1> in grouped_gemm_fp8_tma.cuh), on one H200 with
# binaries built on the CPU machine (.carry/new.tgz: this tree): the fp8 GPU tests (every_tactic
# conformance and Fp8Gemm.* with kTmaSmall bitwise equal to kTma), racecheck / memcheck / synccheck
# on the small GEMM tests, memcheck on the split backend's every_tactic case; then `megamoe tune
# --recipe fp8_block --rounds 2` at T = 128..2048 and `auto` with that tune as the table against
# vLLM's Triton fused MoE and PyTorch.
# Run from the repository root: bash bench/results/2026-12-03_fp8_tma_small/job.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new && tar xzf .carry/new.tgz -C /tmp/new || exit 1
B=/tmp/new
scripts/ab_checks.sh "$R" $B/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' 'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.PitchedRowsSmall'
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='*sm90_fp8_fp8_bf16_split__every_tactic' > "$R/san_memcheck_every_tactic.log" 2>&1
echo "memcheck every_tactic rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/san_memcheck_every_tactic.log" | head -3
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
timeout 100 $B/megamoe tune --recipe fp8_block --presets $PR --tokens 128,256,512,1024,2048 --iters 30 --rounds 2 \
  --cache "$R/tune_fp8_128-2048.json" > "$R/tune.log" 2> "$R/tune.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat "$R/tune.log"
MEGAMOE_TACTIC_CACHE="$R/tune_fp8_128-2048.json" timeout 120 python3 bench/run_bench.py --build $B --recipe fp8_block \
  --backends auto --presets $PR --tokens 128,256,512,1024,2048 --iters 50 --vllm-peer .peers/vllm_triton_moe.py \
  --out "$R/peer_tuned.json" > "$R/peer_tuned.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/peer_tuned.log"
