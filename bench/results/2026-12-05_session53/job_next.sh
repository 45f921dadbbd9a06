#!/usr/bin/env bash
# Prepared in session 53 for the next device session (not run yet). Carry [".carry", ".peers"] with
# .carry/bld.txz packed from this job's commit or later (scripts/pack_carry.sh). Picks its work by the
# GPU it lands on (`run` may give an H100 for `nvidia-h200`):
#   H200 (the shipped table's GPU; issue 14 / 15 targets are the H200's):
#     1. mixtral-8x7b bf16 re-tuned at T = 16384 / 32768 with pass groups on (session 52's pending step;
#        merge: scripts/merge_tune.py r/tune_bf16_mixtral-8x7b_large.json --buckets 16384-32768 --min-gain 0.02);
#     2. `auto` bf16 / w4a16_mxfp4 / w4a16_nvfp4 at T = 2048 / 8192, two rounds (issue 15's T = 8192
#        target on the H200 since the staged W4A16 epilogue);
#   H100 (the partial H100 entries of e36f9fe):
#     1. `auto` bf16 against vLLM's Triton fused MoE and PyTorch at T = 2048 .. 32768 (run_bench.py);
#     2. `megamoe tune` of bf16 at T = 1 .. 1024 on the four presets (the H100 entries cover 2048 up):
#        merge with scripts/merge_tune.py r/tune_bf16_small_*.json --add --min-gain 0.02, then an `auto`
#        A/B as run5 did (job_ab_h100_table.sh) before shipping.
# Ends by ~560 s.
set -u
source scripts/device_env.sh
carried_job_start
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
if grep -q H200 "$R/gpu.txt"; then
  timeout "$(left 200)" $B/megamoe tune --recipe bf16 --presets mixtral-8x7b --tokens 16384,32768 --iters 50 --rounds 2 \
    --cache "$R/tune_bf16_mixtral-8x7b_large.json" > "$R/tune_bf16_mixtral-8x7b_large.txt" 2>&1
  echo "tune rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_bf16_mixtral-8x7b_large.txt" | grep -E "^mixtral-8x7b " | cut -c1-200
  # Round 1 through run_bench.py with the peers as baselines in the same job (session 54: vLLM's
  # Triton fused MoE for bf16, OpenAI's triton_kernels for w4a16_mxfp4; nvfp4 has no peer), round 2 the
  # plain bench (its spread).
  for round in 1 2; do
    for r in bf16 w4a16_mxfp4 w4a16_nvfp4; do
      [ "$(left 500)" -lt 20 ] && { echo "skip $r r$round (time)"; continue; }
      peer=""
      [ "$r" = bf16 ] && peer="--vllm-peer .peers/vllm_triton_moe.py"
      [ "$r" = w4a16_mxfp4 ] && peer="--triton-kernels-peer .peers/triton_kernels_moe.py"
      if [ "$round" = 1 ] && [ -n "$peer" ] && [ -d .peers ]; then
        timeout "$(left 500)" python3 bench/run_bench.py --build "$B" --recipe $r --presets $P --tokens 2048,8192 \
          --iters 50 $peer --out "$R/w4_vs_bf16_${r}_r$round.json" > "$R/w4_vs_bf16_${r}_r$round.txt" 2>&1
      else
        timeout "$(left 500)" $B/megamoe bench --recipe $r --presets $P --tokens 2048,8192 --iters 50 \
          --json "$R/w4_vs_bf16_${r}_r$round.json" > "$R/w4_vs_bf16_${r}_r$round.txt" 2>&1
      fi
      echo "bench $r r$round rc=$? $(el)s"
    done
  done
else
  if [ -f .peers/vllm_triton_moe.py ]; then
    timeout "$(left 280)" python3 bench/run_bench.py --build "$B" --recipe bf16 --out "$R/auto_peer_bf16_h100.json" \
      --presets $P --tokens 2048,4096,8192,16384,32768 --iters 50 --vllm-peer .peers/vllm_triton_moe.py \
      > "$R/auto_peer_bf16_h100.log" 2>&1
    echo "peer bf16 rc=$? $(el)s"; grep -E "geomean|T= *[0-9]+ " "$R/auto_peer_bf16_h100.log" | tail -12
  else echo "no .peers/vllm_triton_moe.py: carry .peers"; fi
  for p in qwen3-30b-a3b gpt-oss-120b mixtral-8x7b deepseek-v3; do
    [ "$(left 560)" -lt 30 ] && { echo "skip tune $p (time)"; continue; }
    timeout "$(left 560)" $B/megamoe tune --recipe bf16 --presets $p --tokens 1-1024 --iters 50 --rounds 2 \
      --cache "$R/tune_bf16_small_$p.json" > "$R/tune_bf16_small_$p.txt" 2>&1
    echo "tune bf16 $p rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_bf16_small_$p.txt" | grep -E "^$p " | cut -c1-150
  done
fi
echo "end $(el)s"
