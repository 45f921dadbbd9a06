#!/usr/bin/env bash
# Session 55, prepared: where W4A16's TMA tactic loses to our bf16 large-T GEMM at T = 8192 (issue 15:
# at most 1.05x bf16; H100 forced split_large_tma: qwen3-30b-a3b 1.13x, gpt-oss-120b 1.10x), per SASS
# instruction. Session 53's ncu of the same two FC1 kernels (run6_ncu) had no SourceCounters, so its
# source pages carried no samples; this one does. Both kernels at qwen3-30b-a3b and gpt-oss-120b
# T = 8192 (FC1, the first launch of each), main's defaults (knobs off). Read with
# python3 scripts/ncu_sass_stalls.py r/ncu_*_source.csv.gz. Carry [".carry"]; ~200 s.
set -u
source scripts/device_env.sh
carried_job_start
M=gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
S="--section SpeedOfLight --section WarpStateStats --section SourceCounters"
for p in qwen3-30b-a3b gpt-oss-120b; do
  [ "$(left 560)" -lt 60 ] && { echo "skip $p (time)"; continue; }
  MEGAMOE_TACTIC_CACHE=off timeout 120 scripts/ncu_kernels.sh "$R/ncu_w4_$p" "w4a16_large_tma_kernel" 1 110 "$S" "$M" -- \
    $B/megamoe bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma \
    --presets $p --tokens 8192 --iters 50
  echo "ncu w4 $p rc=$? $(el)s"
  MEGAMOE_TACTIC_CACHE=off timeout 120 scripts/ncu_kernels.sh "$R/ncu_bf16_$p" "bf16_large_tma_kernel" 1 110 "$S" "$M" -- \
    $B/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma \
    --presets $p --tokens 8192 --iters 50
  echo "ncu bf16 $p rc=$? $(el)s"
done
ls -la "$R"
echo "end $(el)s"
