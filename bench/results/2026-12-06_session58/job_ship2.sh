#!/usr/bin/env bash
# Session 58, sixth call: job_ship.sh again after the plain kernels pair blocks only where N holds an even
# number of 128-row blocks (gpt-oss-120b FC2 stays on Wide: run5 had it 0.973x at T = 512..2048).
# Carry [".carry", ".peers"]: bld.txz = the branch at 652e747 (/work/carry-stash/paired_ship2.txz), main.txz =
# main's binary (ad11127's kernels and table = 9c9e7f3's).
# 1. fp8 GEMM tests, every fp8 backend's conformance cases and the tactic tests, with the defaults;
# 2. `auto` A/B main / new, fp8_block T = 512..8192, four presets (two rounds alternated);
# 3. memcheck / racecheck / synccheck on the fp8 GEMM tests with the defaults;
# 4. `auto` against vLLM's Triton fused MoE and PyTorch, fp8_block T = 128..1024 (run5 did 2048..8192).
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/main.txz -C /tmp/b0
F='Fp8Gemm.*:Registered/Conformance.*fp8_fp8_bf16*:Tactic*'
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/b0/megamoe new=$B/megamoe" RUN_TIMEOUT=150 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-230}" \
  "fp8=--recipe fp8_block --presets $P --tokens 512,1024,2048,4096,8192 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
gpu_sanitizers 'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.PitchedRowsSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' 150 memcheck racecheck synccheck
[ "$(left 480)" -gt 60 ] && {
  timeout "$(left 480)" python3 bench/run_bench.py --build "$B" --recipe fp8_block --presets $P --tokens 128,256,512,1024 \
    --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" > "$R/peers_fp8.txt" 2>&1
  echo "peers rc=$? $(el)s"; grep -iE "geomean|faster" "$R/peers_fp8.txt" | head -6; }
echo "end $(el)s"
