#!/usr/bin/env bash
# Session 39, after the bf16 `split_tma_small` tactic and its table (8e2b341).
# 1. W4A16 small tactic, an A/B form: 8 K steps a copy for 16-token passes (256 bytes of each code
#    row per copy, two stages of ~50 KB at two CTAs per SM; w4a16_small_8steps.patch on 8e2b341,
#    MEGAMOE_W4A16_SMALL_TMA=3; 32-token passes keep 4 steps). The bf16 small kernel gained 2-4% from
#    256 against 128 contiguous bytes a row (bench/results/2026-12-04_bf16_small_wide_stage/).
#    W4A16 GPU tests with it, racecheck / memcheck / synccheck, A/B k1 (shipped) vs k3, forced
#    split_small + auto, mxfp4 / nvfp4, T = 1..16 (the 16-token passes).
# 2. The README's bf16 row: `auto` (8e2b341's compiled table) against vLLM and PyTorch, T = 128..2048.
# Binaries built on the CPU machine (8e2b341 + the patch): .carry/w8.tgz (megamoe, megamoe_gpu_tests).
# Carry [".carry", ".peers"] (.carry holding only w8.tgz).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/w8
mkdir -p $B && tar xzf .carry/w8.tgz -C $B || exit 1
mkdir -p "$R/knob3"
MEGAMOE_W4A16_SMALL_TMA=3 scripts/ab_checks.sh "$R/knob3" $B/megamoe_gpu_tests "$t0" 'W4A16.*:*fp4*' \
  'W4A16.GemmTacticsMatchCpu:W4A16.SmallShapes'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
M=$B/megamoe@MEGAMOE_W4A16_SMALL_TMA
mkdir -p "$R/ab"
AB_VARIANTS="k1=$M=1 k3=$M=3" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 330 \
  "forced_mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small --presets $PR --tokens 1,2,4,8,16 --iters 50" \
  "auto_mx=--recipe w4a16_mxfp4 --presets $PR --tokens 1,2,4,8,16 --iters 50" \
  "auto_nv=--recipe w4a16_nvfp4 --presets $PR --tokens 1,2,4,8,16 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline|gpt-oss" "$R/ab/ab_compare.txt"
timeout 200 python3 bench/run_bench.py --build $B --recipe bf16 --backends auto \
  --presets $PR --tokens 128,256,512,1024,2048 --iters 50 --vllm-peer .peers/vllm_triton_moe.py \
  --out "$R/bf16_vs_vllm.json" > "$R/bf16_vs_vllm.log" 2>&1
echo "bf16 vs vllm rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/bf16_vs_vllm.log"
echo "end $(( $(date +%s) - t0 ))s"
