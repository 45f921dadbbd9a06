#!/usr/bin/env bash
# Session 60: the tree after the fp8 activation-epilogue changes (4ecec7c, a58ab09) and the H100 table
# merge (2 buckets). Carry [".carry"]: bld.txz = this tree.
# 1. the whole GPU test binary (encode2 / encode4 serve every fp8 quantizer); 2. `auto` A/B of the
# two merged H100 buckets (the table before them as a tactic cache); 3. kernel timelines of fp8_block
# `auto` at T = 8192; 4. fp8_block `auto` against vLLM's Triton fused MoE and PyTorch, T = 128..8192.
set -u
source scripts/device_env.sh
carried_job_start
sharded_gpu_tests suite 200
mkdir -p "$R/ab"
AB_VARIANTS="before=$B/megamoe@MEGAMOE_TACTIC_CACHE=$ROOT/bench/results/2026-12-06_session60/table_before_h100.json new=$B/megamoe" \
  RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-200}" \
  "qw=--recipe fp8_block --presets qwen3-30b-a3b,mixtral-8x7b --tokens 2048 --iters 50" \
  "go=--recipe fp8_block --presets gpt-oss-120b --tokens 8192,16384 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
for p in deepseek-v3 qwen3-30b-a3b mixtral-8x7b gpt-oss-120b; do
  [ "$(left 300)" -lt 20 ] && { echo "skip tl $p (time)"; continue; }
  ktrace_bench "h100_$p" -- --recipe fp8_block --presets $p --tokens 8192
done
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
[ "$(left 560)" -gt 60 ] && timeout "$(left 560)" python3 bench/run_bench.py --build $B --recipe fp8_block --presets $P \
  --tokens 128,256,512,1024,2048,4096,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peers_fp8.json" \
  > "$R/peers_fp8.txt" 2>&1
echo "peers rc=$? $(el)s"; tail -40 "$R/peers_fp8.txt" | grep -E "vs|geomean|faster|T=" | head -40
echo "end $(el)s"
