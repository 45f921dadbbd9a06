#!/usr/bin/env bash
# Session 60: the CUTLASS bf16 FC1 activation epilogue (act_epilogue.cuh) computes each value with
# no test and predicates only its store (a branch per element pair before: 95 of 191 gaps between
# the swiglu kernel's EX2s held a branch). Carry [".carry", ".peers"]: bld.txz = this tree,
# base.txz = 01ff138. Also the H100 table's deepseek-v3 fp8_block T = 8192 set to split_tma_act by hand
# (cell fp8ds: base runs split_tma there).
# 1. bf16 GEMM / activation-epilogue tests + bf16 conformance; 2. memcheck on the fused-activation
# test (every activation, bias, ragged I and K); 3. A/B base / new: bf16 `auto` T = 128..8192;
# 4. bf16 `auto` against vLLM's Triton fused MoE and PyTorch, T = 128..8192.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/base.txz -C /tmp/b0
F='GemmBf16Act.*:GroupedGemm.*:Registered/Conformance.*bf16_bf16_bf16*'
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
gpu_sanitizers 'GemmBf16Act.FusedEqualsUnfusedAndCpuForEveryActivationAndKernel' 150 memcheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="base=/tmp/b0/megamoe new=$B/megamoe" RUN_TIMEOUT=200 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-330}" \
  "bf16=--recipe bf16 --presets $P --tokens 128,512,2048,4096,8192 --iters 50" \
  "fp8ds=--recipe fp8_block --presets deepseek-v3 --tokens 8192 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
[ "$(left 540)" -gt 60 ] && timeout "$(left 540)" python3 bench/run_bench.py --build $B --recipe bf16 --presets $P \
  --tokens 128,256,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_bf16.json" \
  > "$R/peers_bf16.txt" 2>&1
echo "peers rc=$? $(el)s"; grep -v "^\[" "$R/peers_bf16.txt" | tail -34
echo "end $(el)s"
