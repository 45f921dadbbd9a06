#!/usr/bin/env bash
# Prepared in session 60 for a session that gets an H200 (not run). Carry [".carry", ".peers"]:
# bld.txz = main (scripts/pack_carry.sh).
# The H200's fp8_block entries predate session 60's activation epilogue (branch-free, 16-byte code
# stores: 1.043x on an H100, where the tunes moved 9 buckets). 1. `megamoe tune` fp8_block
# T = 128..32768 on the four presets (merge with scripts/merge_tune.py --buckets 128-32768
# --min-gain 0.02, then A/B the merged buckets with the old table as a tactic cache); 2. fp8_block
# `auto` against vLLM at T = 128..8192 and kernel timelines at T = 8192 (the DeepGEMM figures of
# issue 14 are H200 figures).
set -u
source scripts/device_env.sh
carried_job_start
grep -q H200 "$R/gpu.txt" || echo "not an H200: the timings below are not comparable with DeepGEMM's figures"
for p in mixtral-8x7b qwen3-30b-a3b deepseek-v3 gpt-oss-120b; do
  tune_until "fp8_$p" 330 --recipe fp8_block --presets $p --tokens 128,256,512,1024,2048,4096,8192,16384,32768
done
for p in deepseek-v3 qwen3-30b-a3b mixtral-8x7b; do
  [ "$(left 420)" -lt 20 ] && { echo "skip tl $p (time)"; continue; }
  ktrace_bench "h200_$p" -- --recipe fp8_block --presets $p --tokens 8192
done
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
[ "$(left 570)" -gt 60 ] && timeout "$(left 570)" python3 bench/run_bench.py --build $B --recipe fp8_block --presets $P \
  --tokens 128,256,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" \
  > "$R/peers_fp8.txt" 2>&1
echo "peers rc=$? $(el)s"; grep -v "^\[" "$R/peers_fp8.txt" | tail -32
echo "end $(el)s"
