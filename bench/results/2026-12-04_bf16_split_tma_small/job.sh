#!/usr/bin/env bash
# Session 39: the bf16 split backend's `split_tma_small` tactic (our TMA-fed small kernel, two K steps a
# stage, two CTAs per SM: bench/results/2026-12-04_bf16_small_wide_stage/ measured its forms).
# 1. the whole GPU suite (conformance runs every tactic of the bf16 split and Mega backends against the
#    CPU reference); racecheck / memcheck / synccheck on GemmBf16Act.FusedEquals* (every activation,
#    one- and two-step stages);
# 2. `megamoe tune --recipe bf16` at T = 4..1024 on the four presets (the tune JSON is the candidate table);
# 3. `auto` A/B: the shipped table (base) against MEGAMOE_TACTIC_CACHE=<the tune> (new), T = 4..1024;
# 4. `auto` with the tune against vLLM's Triton fused MoE and PyTorch, T = 128..1024.
# Binaries built on the CPU machine from this commit's tree: .carry/st.tgz (megamoe, megamoe_gpu_tests).
# Carry [".carry", ".peers"] (.carry holding only st.tgz).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/st
mkdir -p $B && tar xzf .carry/st.tgz -C $B || exit 1
timeout 200 $B/megamoe_gpu_tests --gtest_brief=1 > "$R/suite.log" 2>&1
echo "GPU suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests ran" "$R/suite.log" | head -12
for t in racecheck memcheck synccheck; do
  timeout 100 compute-sanitizer --tool $t $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='GemmBf16Act.FusedEqualsUnfusedAndCpuForEveryActivationAndKernel' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|^\[  PASSED|FAILED" "$R/san_$t.log" | head -3
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
timeout 200 $B/megamoe tune --recipe bf16 --presets $PR --tokens 4-1024 --iters 30 --rounds 2 \
  --cache "$R/tune_bf16_4-1024.json" > "$R/tune.log" 2> "$R/tune.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat "$R/tune.log" | cut -c1-150
mkdir -p "$R/ab"
AB_VARIANTS="base=$B/megamoe new=$B/megamoe@MEGAMOE_TACTIC_CACHE=$R/tune_bf16_4-1024.json" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 470 \
  "auto=--recipe bf16 --presets $PR --tokens 4,8,16,32,64,128,256,512,1024 --iters 50" > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
MEGAMOE_TACTIC_CACHE="$R/tune_bf16_4-1024.json" timeout 110 python3 bench/run_bench.py --build $B --recipe bf16 \
  --backends auto --presets $PR --tokens 128,256,512,1024 --iters 50 --vllm-peer .peers/vllm_triton_moe.py \
  --out "$R/bf16_vs_vllm.json" > "$R/bf16_vs_vllm.log" 2>&1
echo "vllm rc=$? $(( $(date +%s) - t0 ))s"; tail -n 22 "$R/bf16_vs_vllm.log"
echo "end $(( $(date +%s) - t0 ))s"
