#!/usr/bin/env bash
# 2026-12-03 (session 31). The fp8_block tactic split_tma_act_large_fc2 (FC1: our TMA kernel with
# the activation + quantization epilogue; FC2: the CUTLASS 128x128 kernel) on one H200: build,
# the fp8 GPU tests (the every_tactic conformance cases run it against the CPU reference), forced
# split_large_tile /
# split_tma_act / split_tma_act_large_fc2 at T = 2048, 4096, 8192 (alternated, best of two), then
# `megamoe tune --recipe fp8_block --tokens 2048,4096,8192` for the shipped table, then memcheck and
# racecheck on the split backend's every_tactic case.
# Run from the repository root: bash bench/results/2026-12-03_fp8_tma_act_large_fc2/job.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$R/gpu.txt" 2>&1
git log -1 --format=%h > "$R/commit.txt" 2>/dev/null; git status --short >> "$R/commit.txt" 2>/dev/null
t0=$(date +%s)
MEGAMOE_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" scripts/device_build.sh "$BN" megamoe_cli megamoe_gpu_tests \
  > "$R/build.log" 2>&1 || { tail -n 30 "$R/build.log" "$BN.build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
timeout 150 "$BN/megamoe_gpu_tests" --gtest_brief=1 --gtest_filter='*Fp8*:*fp8*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -12
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
declare -A TAC=([large]=split_large_tile [act]=split_tma_act [actfc2]=split_tma_act_large_fc2)
for rep in 1 2; do
  for v in large act actfc2; do
    MEGAMOE_TACTIC_CACHE=off timeout 120 "$BN/megamoe" bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split \
      --tactic "${TAC[$v]}" --presets $PR --tokens 2048,4096,8192 --iters 50 --json "$R/${v}_fp8_r$rep.json" \
      > "$R/${v}_fp8_r$rep.log" 2>&1 || echo "$v r$rep rc=$?"
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
echo "=== split_tma_act -> split_tma_act_large_fc2"; python3 scripts/ab_compare.py "$R" act actfc2
echo "=== split_large_tile -> split_tma_act_large_fc2"; python3 scripts/ab_compare.py "$R" large actfc2
timeout 240 "$BN/megamoe" tune --recipe fp8_block --presets $PR --tokens 2048,4096,8192 --iters 30 \
  --cache "$R/tune_fp8_2048-8192.json" > "$R/tune.log" 2> "$R/tune.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"
tail -n 40 "$R/tune.log"
# Sanitizers last (what time is left): memcheck, then racecheck, on the split backend's every_tactic case.
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "$BN/megamoe_gpu_tests" --gtest_brief=1 \
    --gtest_filter='*sm90_fp8_fp8_bf16_split__every_tactic' > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -3
done
