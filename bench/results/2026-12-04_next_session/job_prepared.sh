#!/usr/bin/env bash
# Prepared in session 36 (its device time ran out), not yet run. After caf4da4 (`split_tma_small` as
# two CTAs per SM, fp8_block T = 128..1024 re-tuned):
# 1. the whole GPU suite (its fp8 tests ran on the shipped form in session 36, the rest did not);
# 2. `auto` against vLLM's Triton fused MoE and PyTorch, fp8_block and bf16, T = 128..2048, in one job
#    (the README rows are of 2893855; bf16 is unchanged since, fp8_block should move at qwen3-30b-a3b
#    T = 128-512 and mixtral-8x7b T = 256 / 512);
# 3. `megamoe tune --recipe fp8_block --tokens 1-64`: the T <= 64 table predates `split_tma_small`
#    (2026-12-02), which may now win cells of a few rows per expert (merge with scripts/merge_tune.py
#    --buckets 1-64, then an A/B of the merged table against HEAD in the next call).
# Binaries: the CLI and megamoe_gpu_tests of HEAD built on the CPU machine, stripped:
#   tar czf .carry/head.tgz -C <dir> megamoe megamoe_gpu_tests
# Run from the repository root with carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head && tar xzf .carry/head.tgz -C /tmp/head || exit 1
timeout 240 /tmp/head/megamoe_gpu_tests --gtest_brief=1 > "$R/gpu_suite.log" 2>&1
echo "suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/gpu_suite.log" | head -20
for r in fp8_block bf16; do
  timeout 150 python3 bench/run_bench.py --build /tmp/head --recipe $r --backends auto \
    --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,256,512,1024,2048 --iters 50 \
    --vllm-peer .peers/vllm_triton_moe.py --out "$R/${r}_vs_vllm.json" > "$R/${r}_vs_vllm.log" 2>&1
  echo "$r peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/${r}_vs_vllm.log"
done
MEGAMOE_TACTIC_CACHE=off timeout 150 /tmp/head/megamoe tune --recipe fp8_block --tokens 1,2,4,8,16,32,64 --iters 30 \
  --cache "$R/tune_fp8_1-64.json" > "$R/tune_fp8_1-64.txt" 2> "$R/tune_fp8_1-64.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -n 30 "$R/tune_fp8_1-64.txt"
echo "end $(( $(date +%s) - t0 ))s"
