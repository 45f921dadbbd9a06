#!/usr/bin/env bash
# Session 65, prepared (not run). Carry [".carry"] (bld.txz of main; scripts/pack_carry.sh) on an H100
# or the H200. Run 3 found mixtral-8x7b's W4A16 FC2 at T = 8192 at 83% of the sustained bf16 MMA rate
# against CUTLASS's bf16 FC2 at 98% (FC1 at parity, ~80% both). One ncu profile each of the two GEMMs
# of w4a16_mxfp4 (`auto`: split_large_tma for both) and of bf16 (`auto`: CUTLASS's large tile),
# mixtral-8x7b T = 8192: tensor pipe, issue, L2 / DRAM bytes, L2 hit rate, stall reasons, per-SASS
# samples (scripts/ncu_sass_stalls.py reads the source pages).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
M="gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"
M="$M,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum"
M="$M,lts__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
S="--section SpeedOfLight --section LaunchStats --section WarpStateStats --section SourceCounters"
scripts/ncu_kernels.sh "$R/nc_mx" 'w4a16_tma' 2 240 "$S" "$M" -- \
  $B/megamoe run --recipe w4a16_mxfp4 --preset mixtral-8x7b --tokens 8192 --iters 2 --no-check
echo "ncu mxfp4 rc=$? $(el)s"
scripts/ncu_kernels.sh "$R/nc_bf16" 'cutlass' 2 240 "$S" "$M" -- \
  $B/megamoe run --recipe bf16 --preset mixtral-8x7b --tokens 8192 --iters 2 --no-check
echo "ncu bf16 rc=$? $(el)s"
xz -9 "$R"/nc_*_source.csv 2>/dev/null
echo "end $(el)s"
