#!/usr/bin/env bash
# Session 62, first call. Carry [".carry", ".peers"]: bld.txz = 1683a19's binary (main 820aa3e: same SASS).
# On an H200 (issue 14/15's targets are H200 figures; the last H200 run was session 59, before sessions
# 60-61's fp8 epilogue work): the whole GPU suite in four shards, `megamoe tune` fp8_block
# T = 128..32768 on the four presets, kernel timelines at T = 8192, fp8_block `auto` against vLLM.
# On an H100: session 61's unrun sanitizer job (racecheck / synccheck / memcheck on 1683a19's epilogue)
# and the whole suite.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
sharded_gpu_tests suite 150
if ! grep -q H200 "$R/gpu.txt"; then
  echo "not an H200: sanitizers on 1683a19's epilogue instead of the H200 tune"
  gpu_sanitizers 'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.PartialBlocksSmall:Fp8Gemm.ManyTilesPerCta:SplitKernels.Activation*' 140 racecheck synccheck memcheck
  echo "end $(el)s"; exit 0
fi
for p in mixtral-8x7b qwen3-30b-a3b deepseek-v3 gpt-oss-120b; do
  tune_until "fp8_$p" 360 --recipe fp8_block --presets $p --tokens 128,256,512,1024,2048,4096,8192,16384,32768
done
for p in deepseek-v3 qwen3-30b-a3b mixtral-8x7b; do
  [ "$(left 440)" -lt 20 ] && { echo "skip tl $p (time)"; continue; }
  ktrace_bench "h200_$p" -- --recipe fp8_block --presets $p --tokens 8192
done
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
[ "$(left 580)" -gt 60 ] && timeout "$(left 580)" python3 bench/run_bench.py --build $B --recipe fp8_block --presets $P \
  --tokens 128,256,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" \
  > "$R/peers_fp8.txt" 2>&1
echo "peers rc=$? $(el)s"; grep -v "^\[" "$R/peers_fp8.txt" | tail -32
echo "end $(el)s"
