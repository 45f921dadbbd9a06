#!/usr/bin/env bash
# Session 53: the ncu half of job_diag.sh again, with the kernels' base names (the first run's
# regexes matched no kernel): the FC1 GEMMs at qwen3-30b-a3b T = 8192, W4A16's TMA tactic
# (w4a16_large_tma_kernel) against CUTLASS's bf16 large tile (gemm_pdl_kernel, FC1 and FC2) and our bf16 large-T GEMM (bf16_large_tma_kernel, FC1):
# shared-memory bank traffic, L1 throughput, tensor-pipe activity. Carry [".carry"]. ~60 s.
set -u
source scripts/device_env.sh
carried_job_start
M=gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_bytes.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
S="--section SpeedOfLight --section MemoryWorkloadAnalysis_Tables"
MEGAMOE_TACTIC_CACHE=off timeout 60 scripts/ncu_kernels.sh "$R/ncu_w4_fc1" "w4a16_large_tma_kernel" 1 55 "$S" "$M" -- \
  $B/megamoe bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma_fc1 \
  --presets qwen3-30b-a3b --tokens 8192 --iters 50
echo "ncu w4 rc=$? $(el)s"
MEGAMOE_TACTIC_CACHE=off timeout 60 scripts/ncu_kernels.sh "$R/ncu_bf16_fc1" "gemm_pdl_kernel" 2 55 "$S" "$M" -- \
  $B/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tile \
  --presets qwen3-30b-a3b --tokens 8192 --iters 50
echo "ncu bf16 rc=$? $(el)s"
MEGAMOE_TACTIC_CACHE=off timeout 60 scripts/ncu_kernels.sh "$R/ncu_bf16tma_fc1" "bf16_large_tma_kernel" 1 55 "$S" "$M" -- \
  $B/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma \
  --presets qwen3-30b-a3b --tokens 8192 --iters 50
echo "ncu bf16 tma rc=$? $(el)s"
echo "end $(el)s"
