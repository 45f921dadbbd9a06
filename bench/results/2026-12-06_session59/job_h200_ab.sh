#!/usr/bin/env bash
# Session 59, fifth call (an H200 wanted): the H200 entries merged from run 4's tune (1ea5045) as `auto`
# runs them. Carry [".carry", ".peers"]: bld.txz = 1ea5045 (/work/carry-stash/h200_table.txz),
# main.txz = 1e776b8 (the table before the merge; same kernels with the early-draw knob off).
# 1. the tactic and fp8 GEMM tests; 2. `auto` A/B main / new, fp8_block T = 2048..8192 (four presets)
# and w4a16_mxfp4 qwen3-30b-a3b T = 8192; 3. `auto` against vLLM's Triton fused MoE and PyTorch,
# fp8_block T = 2048..8192 (the DeepGEMM pipeline's H200 figures: issue 14).
set -u
source scripts/device_env.sh
carried_job_start
if [ -z "${DRY:-}" ] && ! grep -q H200 "$R/gpu.txt"; then echo "not an H200: $(cat "$R/gpu.txt")"; exit 0; fi
mkdir -p /tmp/b0 && tar xJf .carry/main.txz -C /tmp/b0
timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Tactic*:Fp8Gemm.*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/b0/megamoe new=$B/megamoe" RUN_TIMEOUT=150 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-200}" \
  "fp8=--recipe fp8_block --presets $P --tokens 2048,4096,8192 --iters 50" \
  "mx=--recipe w4a16_mxfp4 --presets qwen3-30b-a3b --tokens 8192 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
[ "$(left 400)" -gt 60 ] && {
  timeout "$(left 400)" python3 bench/run_bench.py --build "$B" --recipe fp8_block --presets $P --tokens 2048,4096,8192 \
    --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" > "$R/peers_fp8.txt" 2>&1
  echo "peers rc=$? $(el)s"; grep -iE "geomean|faster" "$R/peers_fp8.txt" | head -6; }
echo "end $(el)s"
