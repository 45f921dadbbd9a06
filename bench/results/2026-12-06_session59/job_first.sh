#!/usr/bin/env bash
# Session 59, first call. Carry [".carry"]: bld.txz = this session's tree (main + the tile-count test,
# the fp8 split heuristic's split_tma_act, both rebuilt after session 58's branch was lost).
#  - an H200: session 56's job_tune_h200.sh (bf16 / fp8_block T = 2048..8192, W4A16 4096 / 8192:
#    the H200's entries predate session 58's fp8 kernels; ~565 s), merged afterwards with
#    scripts/merge_tune.py --min-gain 0.02;
#  - otherwise: the new / changed GPU tests (+ memcheck / racecheck of the tile-count test), then
#    kernel timelines at T = 8192 (deepseek-v3, qwen3-30b-a3b: our FC2 against CUTLASS's with the
#    dynamic order, under load) and ncu of our two GEMMs (FC1 + FC2) at deepseek-v3 / qwen3-30b-a3b
#    T = 8192 with per-instruction samples: how much of FC2 the epilogue takes.
set -u
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && [ "${SKIP_TUNE:-0}" = 0 ]; then
  exec bash bench/results/2026-12-06_session56/job_tune_h200.sh
fi
source scripts/device_env.sh
carried_job_start
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
MEGAMOE_FP8_TMA_DYNAMIC=2 timeout 60 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.DynamicOrder*' \
  > "$R/tests_dyn2.log" 2>&1
echo "tile count, DYNAMIC=2 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_dyn2.log" | head -4
gpu_sanitizers 'Fp8Gemm.DynamicOrderRunsEveryTileOnce' 90 memcheck racecheck
for c in "ds_act deepseek-v3 split_tma_act" "ds_large deepseek-v3 split_large_tile" \
         "qw_act qwen3-30b-a3b split_tma_act" "qw_tma qwen3-30b-a3b split_tma" "qw_large qwen3-30b-a3b split_large_tile"; do
  set -- $c
  [ "$(left 330)" -lt 20 ] && { echo "skip $1 (time)"; continue; }
  ktrace_bench "$1" -- --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $3 --presets $2 --tokens 8192
done
M="gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"
M="$M,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.avg"
for p in deepseek-v3 qwen3-30b-a3b; do
  [ "$(left 520)" -lt 60 ] && { echo "skip ncu $p (time)"; continue; }
  scripts/ncu_kernels.sh "$R/nc_$p" fp8_tma_kernel 2 "$(left 540)" \
    "--section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis" "$M" -- \
    $B/megamoe run --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --preset $p --recipe fp8_block --tokens 8192 --iters 2 --no-check
  echo "ncu $p rc=$? $(el)s"; tail -4 "$R/nc_$p.log"
done
echo "end $(el)s"
