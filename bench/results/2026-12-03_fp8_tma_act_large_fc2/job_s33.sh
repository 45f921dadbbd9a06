#!/usr/bin/env bash
# 2026-12-03 (session 33): second call, on the machine warm from
# ../2026-12-03_fp8_tma_epilogue_diag/job_s33.sh (build-dn holds the tree with act_large_fc2.patch,
# whose fp8 every_tactic cases that job's whole GPU suite ran). Forced split_large_tile /
# split_tma_act / split_tma_act_large_fc2 at T = 2048, 4096, 8192 (alternated, best of two), then
# `megamoe tune --recipe fp8_block --rounds 2` at T = 128..8192 with every registered tactic, then
# memcheck / racecheck / synccheck on the split backend's every_tactic case and the GEMM TMA cases.
# Run from the repository root after the first job: bash bench/results/2026-12-03_fp8_tma_act_large_fc2/job_s33.sh
set -u
git apply bench/results/2026-12-03_fp8_tma_act_large_fc2/act_large_fc2.patch || { echo "patch failed"; exit 1; }
source scripts/device_env.sh
t0=$(date +%s)
MEGAMOE_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" scripts/device_build.sh "$BN" megamoe_cli megamoe_gpu_tests \
  > "$R/build.log" 2>&1 || { tail -n 30 "$R/build.log" "$BN.build.log"; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
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
timeout 200 "$BN/megamoe" tune --recipe fp8_block --presets $PR --tokens 128,512,1024,2048,4096,8192 --iters 30 \
  --rounds 2 --cache "$R/tune_fp8_128-8192.json" > "$R/tune.log" 2> "$R/tune.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"
tail -n 40 "$R/tune.log"
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$BN/megamoe_gpu_tests" --gtest_brief=1 \
    --gtest_filter='*sm90_fp8_fp8_bf16_split__every_tactic:Fp8Gemm.*' > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -3
done
