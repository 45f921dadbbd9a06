#!/usr/bin/env bash
# Session 55, on the H200 when no H100 came: the chunked-epilogue knobs' A/B (as the chunked job's `ab`
# phase, bench/results/2026-12-05_bf16_large_chunked_epilogue_prepared/job.sh, until 170 s), then
# job_next.sh's mixtral-8x7b bf16 re-tune of the 16384 / 32768 buckets (until 400 s), then bf16 / W4A16
# at T = 2048 / 8192 with the peers (until 570 s). Carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
carried_job_start
P=qwen3-30b-a3b,deepseek-v3,gpt-oss-120b,mixtral-8x7b
AB_END=170 knob_ab MEGAMOE_BF16_LARGE_TMA_CHUNKED "off=0@MEGAMOE_W4A16_LARGE_TMA_CHUNKED=0 on=1@MEGAMOE_W4A16_LARGE_TMA_CHUNKED=1" 150 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50" \
  "w4=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50"
echo "ab end $(el)s"
timeout "$(left 400)" $B/megamoe tune --recipe bf16 --presets mixtral-8x7b --tokens 16384,32768 --iters 50 --rounds 2 \
  --cache "$R/tune_bf16_mixtral-8x7b_large.json" > "$R/tune_bf16_mixtral-8x7b_large.txt" 2>&1
echo "tune rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_bf16_mixtral-8x7b_large.txt" | grep -E "^mixtral-8x7b " | cut -c1-200
# Issue 15's T = 8192 ratio on the H200 with the binary's defaults: `auto` bf16 against vLLM and
# PyTorch, then w4a16_mxfp4 against triton_kernels (gpt-oss-120b, deepseek-v3 run it), until 570 s.
for r in bf16 w4a16_mxfp4 w4a16_nvfp4; do
  [ "$(left 570)" -lt 30 ] && { echo "skip $r (time)"; continue; }
  peer=""
  [ "$r" = bf16 ] && [ -d .peers ] && peer="--vllm-peer .peers/vllm_triton_moe.py"
  [ "$r" = w4a16_mxfp4 ] && [ -d .peers ] && peer="--triton-kernels-peer .peers/triton_kernels_moe.py"
  timeout "$(left 570)" python3 bench/run_bench.py --build "$B" --recipe $r --presets $P --tokens 2048,8192 \
    --iters 50 $peer --out "$R/w4_vs_bf16_$r.json" > "$R/w4_vs_bf16_$r.txt" 2>&1
  echo "bench $r rc=$? $(el)s"; grep -E "geomean" "$R/w4_vs_bf16_$r.txt" | head -3
done
echo "end $(el)s"
