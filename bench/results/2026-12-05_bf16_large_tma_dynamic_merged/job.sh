#!/usr/bin/env bash
# Session 47: the dynamic tile order made the default of our bf16 large-T GEMM (afa0079), and the
# early draw (branch wip/bf16-large-tma-early-draw: the TMA lane draws the next ticket right after
# issuing a tile's last step, so the atomic's latency overlaps the wait for the next free stage).
# Binaries: .carry/bld.txz = megamoe + megamoe_gpu_tests of the early-draw branch (tests, tune, peer
# and ncu run it), .carry/old.txz = megamoe of afa0079 (the A/B's dyn). One call, carry
# [".carry", ".peers"]:
#  tests: the large GEMM's tests (both orders), the act-epilogue / split-backend tests and the bf16
#    backends' conformance cases in the default (now dynamic) order; sanitizers on the small problem.
#  ab: tile (forced split_large_tile) / dyn (afa0079, forced split_large_tma) / early (the branch), uniform
#    T = 1024..8192 and beyond (T = 12288 / 16384), best of two (the static order: run1 of the
#    prepared job and the ncu phase below).
#  tune: T = 4096 / 8192 per preset (JSON kept for scripts/merge_tune.py).
#  peer: `auto` bf16, T = 4096 / 8192, with vLLM's Triton fused MoE and PyTorch (bench/run_bench.py).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/bld /tmp/old && tar xJf .carry/bld.txz -C /tmp/bld && tar xJf .carry/old.txz -C /tmp/old || exit 1
B=/tmp/bld
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
SPLIT=sm90_bf16_bf16_bf16_split
F='Bf16LargeTma.*:GemmBf16Act.*:SplitBf16.*:Registered/Conformance.Run/sm90_bf16_bf16_bf16_*'
timeout 220 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
for t in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Bf16LargeTma.SmallProblemForSanitizers' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
wrap() { mkdir -p /tmp/w; printf '#!/bin/sh\nexec %s "$@" --tactic %s\n' "$3" "$2" > "/tmp/w/$1"; chmod +x "/tmp/w/$1"; }
mkdir -p "$R/ab"; wrap tile split_large_tile $B/megamoe; wrap tma split_large_tma /tmp/old/megamoe; wrap early split_large_tma $B/megamoe
AB_VARIANTS="tile=/tmp/w/tile dyn=/tmp/w/tma early=/tmp/w/early" RUN_TIMEOUT=120 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 330 \
  "uniform=--recipe bf16 --backend $SPLIT --presets $P --tokens 1024,2048,4096,8192 --iters 50" \
  "beyond=--recipe bf16 --backend $SPLIT --presets gpt-oss-120b,deepseek-v3 --tokens 12288,16384 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|speed-up|deadline|ALL" "$R/ab.txt" | grep -E "^==|geomean|ALL|deadline"
echo "ab $(( $(date +%s) - t0 ))s"
for p in gpt-oss-120b deepseek-v3 qwen3-30b-a3b mixtral-8x7b; do
  timeout 90 $B/megamoe tune --recipe bf16 --presets $p --tokens 4096,8192 \
    --iters 20 --rounds 2 --cache "$R/tune_bf16_$p.json" > "$R/tune_bf16_$p.txt" 2>&1
  echo "tune $p rc=$? $(( $(date +%s) - t0 ))s"; tr '\r' '\n' < "$R/tune_bf16_$p.txt" | grep -E "^$p " | cut -c1-120
done
if [ -f .peers/vllm_triton_moe.py ]; then
  timeout 150 python3 bench/run_bench.py --build "$B" --out "$R/auto_peer.json" \
    --presets $P --tokens 4096,8192 --backends sm90_bf16_bf16_bf16_mega --vllm-peer .peers/vllm_triton_moe.py \
    > "$R/auto_peer.log" 2>&1
  echo "auto peer rc=$? $(( $(date +%s) - t0 ))s"; grep -E "geomean|T= *[0-9]+ " "$R/auto_peer.log" | tail -12
else echo "no .peers: peer phase skipped"; fi
# ncu: qwen3-30b-a3b T = 8192, FC1 and FC2 on our kernel in the dynamic order (the default): did the
# dynamic order bring FC1's DRAM bytes down from session 46's 1.91 GB (the tile: 1.08 GB)? The
# per-instruction stall samples are kept (xz): their share inside the K loops (address ranges from
# scripts/sass_loops.py on the same binary) against the epilogue's says what a ping-pong would win.
M="gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"
M="$M,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum"
for v in dyn:1; do  # the static order's figures: session 46 (../2026-12-05_bf16_large_tma_prepared/run1_ncu/)
  [ $(( $(date +%s) - t0 )) -gt 360 ] && { echo "skip ncu ${v%%:*} (time)"; continue; }
  MEGAMOE_BF16_LARGE_TMA_DYNAMIC=${v#*:} scripts/ncu_kernels.sh "$R/nc_${v%%:*}_qwen3" 'bf16_large_tma' 2 120 \
    "--section SpeedOfLight --section LaunchStats --section WarpStateStats --section SourceCounters" "$M" -- \
    $B/megamoe run --backend $SPLIT --tactic split_large_tma --preset qwen3-30b-a3b --tokens 8192 --iters 2 --no-check
  echo "ncu ${v%%:*} rc=$? $(( $(date +%s) - t0 ))s"; xz -9 "$R"/nc_*_source.csv
done
echo "end $(( $(date +%s) - t0 ))s"
