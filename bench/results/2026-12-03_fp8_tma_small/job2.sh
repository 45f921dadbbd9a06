#!/usr/bin/env bash
# 2026-12-03 (session 33), after job.sh: the tune of job.sh merged into the shipped table
# (scripts/merge_tune.py --buckets 128-2048); binaries carried from the CPU machine or built here.
# Since cacf5e3.. the bench warms each cell up for 50 ms (kCellWarmupMs): the qwen3-30b-a3b T = 128
# numbers below also tell whether that removed the first-cell effect.
# `auto` with the shipped table against vLLM's Triton fused MoE and PyTorch at T = 128..2048; then
# why qwen3-30b-a3b T = 128 ran 0.28 ms in job.sh's `auto` run against 0.19 ms in its tune: the Mega
# backend and the split backend forced to split_tma_small at T = 128..512 (alternated, twice), and a
# kernel timeline (scripts/ktrace) of the Mega backend's `auto` at T = 128.
# Run from the repository root: bash bench/results/2026-12-03_fp8_tma_small/job2.sh
set -u
source scripts/device_env.sh
t0=$(date +%s)
# Binaries: carried ones (.carry/new.tgz, built on the CPU machine) or, in a fresh checkout, built here.
if [ -f .carry/new.tgz ]; then
  mkdir -p /tmp/new && tar xzf .carry/new.tgz -C /tmp/new || exit 1
  B=/tmp/new
else
  MEGAMOE_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" scripts/device_build.sh "$BN" megamoe_cli \
    > "$R/build.log" 2>&1 || { tail -n 30 "$R/build.log" "$BN.build.log"; exit 1; }
  B=$BN
  echo "build $(( $(date +%s) - t0 ))s"
fi
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
timeout 110 python3 bench/run_bench.py --build $B --recipe fp8_block --backends auto --presets $PR \
  --tokens 128,256,512,1024,2048 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peer_shipped.json" \
  > "$R/peer_shipped.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/peer_shipped.log"
for rep in 1 2; do
  for be in mega split; do
    MEGAMOE_TACTIC_CACHE=off timeout 40 $B/megamoe bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_$be \
      --tactic split_tma_small --presets qwen3-30b-a3b --tokens 128,256,512 --iters 50 > "$R/${be}_r$rep.log" 2>&1
    echo "$be r$rep: $(grep -E '^qwen3' "$R/${be}_r$rep.log" | awk '{printf "T=%s %s ms  ", $2, $3}')"
  done
done
CUDA=/usr/local/cuda
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -L$CUDA/lib64 -lcupti && \
  CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/mega_auto_qwen3.csv LD_LIBRARY_PATH=$CUDA/lib64:${LD_LIBRARY_PATH:-} \
  timeout 40 $B/megamoe bench --recipe fp8_block --presets qwen3-30b-a3b --tokens 128,256 --iters 50 > "$R/mega_auto_trace.log" 2>&1
grep -E "^qwen3" "$R/mega_auto_trace.log"
python3 scripts/ktrace/timeline.py $R/mega_auto_qwen3.csv | tee $R/mega_auto_qwen3.timeline.txt
gzip -f $R/*.csv
echo "end $(( $(date +%s) - t0 ))s"
