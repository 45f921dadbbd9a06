#!/usr/bin/env bash
# Session 64, second call. Carry [".carry", ".peers"]: bld.txz as job1.sh (main's kernels at the default knobs).
# On an H200: session 63's job1_state.sh (fp8_block and bf16 `auto` against vLLM's Triton fused MoE and
# PyTorch T = 128..8192, W4A16 at T = 8192 against our bf16, w4a16_mxfp4 T = 1..64 against triton_kernels).
# On an H100: `megamoe tune` bf16 T = 128..1024 on qwen3-30b-a3b and mixtral-8x7b (the cells behind
# vLLM: qwen3-30b-a3b T = 512 / 1024), the two caches as one, `auto` with the shipped table against it.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
if ! grep -q H200 "$R/gpu.txt"; then
  for p in qwen3-30b-a3b mixtral-8x7b; do
    tune_until "bf16_$p" 330 --recipe bf16 --presets $p --tokens 128,256,512,1024
  done
  merge_tune_caches "$R/tuned.json" "$R"/tune_bf16_*.json
  mkdir -p "$R/ab"
  AB_VARIANTS="shipped=$B/megamoe tuned=$B/megamoe@MEGAMOE_TACTIC_CACHE=$R/tuned.json" RUN_TIMEOUT=90 \
    scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 560 "b16=--recipe bf16 --presets qwen3-30b-a3b,mixtral-8x7b --tokens 128,256,512,1024 --iters 50" \
    > "$R/ab.txt" 2>&1
  grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"; grep -h '"tactic"' "$R"/ab/*tuned*_r1.json | sort | uniq -c
  echo "end $(el)s"; exit 0
fi
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
