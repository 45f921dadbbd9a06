#!/usr/bin/env bash
# Session 48: the tactic buckets 16384 and 32768 (17b93e4). Until a table names them, T > 8192 runs
# each entry's 8192 tactic (with_large_buckets_inherited). This job measures what those buckets
# should hold and where `auto` stands there against the peers, before any merge.
# Binary: .carry/main.txz = megamoe of main at 17b93e4 (or later with the same kernels). One call,
# carry [".carry", ".peers"]; ~300-420 s (each phase has its own deadline below).
#  peer:  `auto` bf16 and fp8_block at T = 16384 / 32768 as shipped (the inherited 8192 tactics),
#         with vLLM's Triton fused MoE and PyTorch in the same job (bench/run_bench.py; the
#         "before" of a merge, and the README's first rows past 8192).
#  tune:  `megamoe tune` T = 16384 / 32768 per preset, bf16 then fp8_block (JSON for
#         scripts/merge_tune.py --buckets 16384-32768 --min-gain 0.02).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/main && tar xJf .carry/main.txz -C /tmp/main || exit 1
B=/tmp/main
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
left() { echo $(( $1 - ($(date +%s) - t0) )); }
if [ -f .peers/vllm_triton_moe.py ]; then
  for rd in bf16:160 fp8_block:290; do  # each recipe's phase ends by its deadline (s since the start)
    r=${rd%%:*} d=${rd#*:}
    [ "$(left $d)" -lt 30 ] && { echo "skip peer $r (time)"; continue; }
    timeout "$(left $d)" python3 bench/run_bench.py --build "$B" --recipe $r --out "$R/auto_peer_$r.json" \
      --presets $P --tokens 16384,32768 --iters 20 --vllm-peer .peers/vllm_triton_moe.py > "$R/auto_peer_$r.log" 2>&1
    echo "peer $r rc=$? $(( $(date +%s) - t0 ))s"; grep -E "geomean|T= *[0-9]+ " "$R/auto_peer_$r.log" | tail -10
  done
else echo "no .peers: peer phase skipped"; fi
for r in bf16 fp8_block; do
  for p in gpt-oss-120b qwen3-30b-a3b mixtral-8x7b deepseek-v3; do
    [ "$(left 560)" -lt 25 ] && { echo "skip tune $r $p (time)"; continue; }
    timeout "$(left 560)" $B/megamoe tune --recipe $r --presets $p --tokens 16384,32768 \
      --iters 20 --rounds 2 --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2>&1
    echo "tune $r $p rc=$? $(( $(date +%s) - t0 ))s"; tr '\r' '\n' < "$R/tune_${r}_$p.txt" | grep -E "^$p " | cut -c1-160
  done
done
echo "end $(( $(date +%s) - t0 ))s"
