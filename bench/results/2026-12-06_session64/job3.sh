#!/usr/bin/env bash
# Session 64, third call. Carry [".carry", ".peers"]: bld.txz as job1.sh (main's kernels at the default knobs).
# Where main stands on the GPU it lands on: job2.sh's H200 branch (fp8_block / bf16 against vLLM and PyTorch T = 128..8192,
# W4A16 at T = 8192, w4a16_mxfp4 T = 1..64 against triton_kernels), on any GPU.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
timeout "$(left 230)" python3 bench/run_bench.py --build $B --recipe fp8_block --presets $P \
  --tokens 128,256,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" \
  > "$R/peers_fp8.txt" 2>&1
echo "peers fp8 rc=$? $(el)s"; grep -v "^\[" "$R/peers_fp8.txt" | tail -32
for f in mxfp4 nvfp4; do
  [ "$(left 330)" -lt 30 ] && { echo "skip w4a16 $f 8192 (time)"; continue; }
  timeout "$(left 330)" $B/megamoe bench --recipe w4a16_$f --presets $P --tokens 8192 --iters 50 --json "$R/w4_${f}_8192.json" \
    > "$R/w4_${f}_8192.txt" 2>&1
  echo "w4a16 $f rc=$? $(el)s"; grep -E "^[a-z0-9-]+ +8192" "$R/w4_${f}_8192.txt"
done
[ "$(left 500)" -gt 60 ] && timeout "$(left 500)" python3 bench/run_bench.py --build $B --recipe bf16 --presets $P \
  --tokens 128,256,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_bf16.json" \
  > "$R/peers_bf16.txt" 2>&1
echo "peers bf16 rc=$? $(el)s"; grep -v "^\[" "$R/peers_bf16.txt" | tail -32
[ "$(left 585)" -gt 40 ] && timeout "$(left 585)" python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 \
  --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b --tokens 1,4,16,64 --iters 50 \
  --triton-kernels-peer .peers/triton_kernels_moe.py --out "$R/tk_mxfp4_small.json" > "$R/tk_mxfp4_small.txt" 2>&1
echo "tk rc=$? $(el)s"; grep -v "^\[" "$R/tk_mxfp4_small.txt" | tail -16
echo "end $(el)s"
