#!/usr/bin/env bash
# Prepared in session 40 (no device time left), not yet run. Issue 15 wants every gpt-oss-120b and
# deepseek-v3 W4A16 cell faster than OpenAI's triton_kernels and every cell up to T = 512 faster than
# our bf16; the last measurement above T = 64 is 7e376a5's (2026-12-02: deepseek-v3 T = 256 0.84x,
# T = 2048 0.97x), before the small tactic's TMA form (sessions 38-39) and `split_large`'s activation
# epilogue (session 40). This job measures the committed tree as users run it:
# 1. `auto` w4a16_mxfp4 against triton_kernels (and the PyTorch dequantize pipeline, and our bf16, which
#    run_bench records as baselines), deepseek-v3 and gpt-oss-120b, T = 128..8192;
# 2. `auto` w4a16_mxfp4 / w4a16_nvfp4 against our bf16 on qwen3-30b-a3b and mixtral-8x7b, T = 128..512
#    (the "faster than bf16 up to T = 512" target on the other presets).
# Binary: megamoe of the committed tree (session 40 made .carry/head40.tgz from d6873da; rebuild it with
# `ninja megamoe_cli` + strip + tar if this checkout lacks it). Carry [".carry", ".peers"] with only that
# tarball in .carry (the tree is ~40 MB; the 64 MiB limit counts both).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/head
mkdir -p $B && tar xzf .carry/head40.tgz -C $B || exit 1
timeout 300 python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 --backends auto \
  --presets deepseek-v3,gpt-oss-120b --tokens 128,256,512,1024,2048,4096,8192 --iters 50 \
  --triton-kernels-peer .peers/triton_kernels_moe.py --out "$R/tk_mxfp4_prefill.json" > "$R/tk_mxfp4_prefill.log" 2>&1
echo "tk rc=$? $(( $(date +%s) - t0 ))s"; tail -n 20 "$R/tk_mxfp4_prefill.log" | cut -c1-160
for r in w4a16_mxfp4 w4a16_nvfp4 bf16; do
  timeout 60 $B/megamoe bench --recipe $r --presets qwen3-30b-a3b,mixtral-8x7b --tokens 128,256,512 --iters 50 \
    --json "$R/mid_$r.json" > "$R/mid_$r.log" 2>&1
  echo "$r rc=$? $(( $(date +%s) - t0 ))s"
done
python3 - "$R" <<'PY'
import json, sys
r = sys.argv[1]
bf = {(x['model'], x['tokens']): x['median_ms'] for x in json.load(open(f"{r}/mid_bf16.json"))}
for rec in ('w4a16_mxfp4', 'w4a16_nvfp4'):
    for x in json.load(open(f"{r}/mid_{rec}.json")):
        k = (x['model'], x['tokens'])
        print(f"{rec} {k[0]:15s} T={k[1]:5d} {x['tactic']:16s} {x['median_ms']:.4f} ms  bf16 {bf[k]:.4f}  speed-up {bf[k] / x['median_ms']:.3f}")
PY
echo "end $(( $(date +%s) - t0 ))s"
