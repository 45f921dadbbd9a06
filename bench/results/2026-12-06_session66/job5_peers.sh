#!/usr/bin/env bash
# Session 66, prepared (not run: the session's device budget was spent). The peers for the cells runs 1-3
# timed without them: main's binary (CARRY_BLD=bld_main.txz, main ea25027: the kernels of ccd86d4)
# against vLLM's Triton fused MoE at fp8_block T = 2048 / 8192 on the four presets (vLLM has no
# gpt-oss-120b fp8 config: `-` there), and against OpenAI's triton_kernels at w4a16_mxfp4 T = 8192 on
# deepseek-v3 / gpt-oss-120b / mixtral-8x7b, PyTorch in every record (bench/run_bench.py).
# Carry [".carry"]; .peers/ holds the copies of ../shared/peers/. ~300 s.
set -u
CARRY_BLD=bld_main.txz
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
timeout "$(left 170)" python3 bench/run_bench.py --build $B --recipe fp8_block \
  --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 2048,8192 --iters 50 \
  --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" > "$R/peers_fp8.txt" 2>&1
echo "peers fp8 rc=$? $(el)s"; grep -v "^\[" "$R/peers_fp8.txt" | tail -12
[ "$(left 300)" -gt 40 ] && timeout "$(left 300)" python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 \
  --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b --tokens 8192 --iters 50 \
  --triton-kernels-peer .peers/triton_kernels_moe.py --out "$R/tk_mxfp4_8192.json" > "$R/tk_mxfp4_8192.txt" 2>&1
echo "tk rc=$? $(el)s"; grep -v "^\[" "$R/tk_mxfp4_8192.txt" | tail -8
echo "end $(el)s"
