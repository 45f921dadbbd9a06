#!/usr/bin/env bash
# Session 67, after job1's tune: where issue 14 / 15's targets stand on this GPU, with every peer in the
# same job. Carry [".carry", ".peers"]: .carry/bld_main.txz = main a395644; .carry/tuned.json (when present:
# job1's tune merged, the entries that won) becomes MEGAMOE_TACTIC_CACHE, so `auto` runs what the next
# shipped table will hold. bench/run_bench.py writes megamoe's records with PyTorch's and the peer's.
#   fp8_block T = 2048 / 4096 / 8192, four presets, vLLM's Triton fused MoE (issue 14: >= 60% of the FP8
#     MMA rate at 8192; DeepGEMM's figures from T = 2048; 1.10x over vLLM and PyTorch)
#   bf16 T = 256 / 512 / 1024 / 2048 / 8192, four presets, vLLM (issue 14: >= 70% at 8192, 1.10x)
#   w4a16_mxfp4 T = 1 / 4 / 16 / 64 / 8192, four presets, triton_kernels on deepseek-v3 / gpt-oss-120b
#   bf16 T = 1 / 4 / 16 / 64 (issue 15: W4A16 against our bf16; 3x at deepseek-v3 T = 1)
set -u
CARRY_BLD=${CARRY_BLD:-bld_main.txz}
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
[ -f .carry/tuned.json ] && { export MEGAMOE_TACTIC_CACHE=$ROOT/.carry/tuned.json; echo "tactic cache: tuned.json"; }
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
rb() { local n=$1 d=$2; shift 2
  [ "$(left "$d")" -lt 30 ] && { echo "skip $n (time)"; return; }
  timeout "$(left "$d")" python3 bench/run_bench.py --build $B --presets $P --iters 50 --out "$R/$n.json" "$@" \
    > "$R/$n.txt" 2>&1
  echo "$n rc=$? $(el)s"; grep -v "^\[" "$R/$n.txt" | tail -22 | cut -c1-150; }
rb fp8_large ${D1:-150} --recipe fp8_block --tokens 2048,4096,8192 --vllm-peer .peers/vllm_triton_moe.py
rb bf16_mid ${D2:-290} --recipe bf16 --tokens 256,512,1024,2048,8192 --vllm-peer .peers/vllm_triton_moe.py
rb mx ${D3:-440} --recipe w4a16_mxfp4 --tokens 1,4,16,64,8192 --triton-kernels-peer .peers/triton_kernels_moe.py
rb bf16_small ${D4:-540} --recipe bf16 --tokens 1,4,16,64
echo "end $(el)s"
