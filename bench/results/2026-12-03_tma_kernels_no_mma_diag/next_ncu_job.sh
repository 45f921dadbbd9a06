#!/usr/bin/env bash
# For a next device job (not run yet): where the fp8 TMA kernel's K step goes without its MMAs and token
# tiles. Applies diag_macros.patch (no-op unless a macro is defined), builds the CLI twice from that tree
# (base; nmt = -DMEGAMOE_DIAG_NO_TOKENS,MEGAMOE_DIAG_NO_MMA), then ncu (clocks free) on the first FC1 of
# mixtral-8x7b T = 8192: base split_tma, nmt split_tma, and CUTLASS's large tile from the base binary:
# speed of light, warp states, SASS stall sampling, memory tables, the tensor pipe and the SM clock.
# Questions: in nmt, which instruction do the consumer warps stall on (the full-barrier wait: load
# latency) and the producer warps (the empty wait); L2 hit rate and throughput of base against CUTLASS.
set -u
git apply bench/results/2026-12-03_tma_kernels_no_mma_diag/diag_macros.patch || { echo "patch failed"; exit 1; }
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
NC="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}"
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF" JOBS=8 scripts/device_build.sh /tmp/build-base megamoe_cli > $R/base_build.log 2>&1 &
MEGAMOE_CMAKE_ARGS="$NC -DMEGAMOE_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMEGAMOE_DIAG_NO_TOKENS,MEGAMOE_DIAG_NO_MMA" JOBS=8 \
  scripts/device_build.sh /tmp/build-nmt megamoe_cli > $R/nmt_build.log 2>&1 &
wait
echo "builds $(( $(date +%s) - t0 ))s"
export MEGAMOE_TACTIC_CACHE=off
S="--clock-control none --section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,dram__bytes_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum.per_second,l1tex__m_xbar2l1tex_read_bytes.sum.per_second,lts__t_sectors_srcunit_tex_op_read.sum"
for v in base nmt cutlass; do
  X=/tmp/build-base/megamoe; tac=split_tma; k='regex:fp8_tma'
  [ $v = nmt ] && X=/tmp/build-nmt/megamoe
  [ $v = cutlass ] && { tac=split_large_tile; k='regex:device_kernel|Gemm'; }
  timeout 150 ncu $S -k "$k" -c 1 -o $R/mix_$v $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac \
    --presets mixtral-8x7b --tokens 8192 --iters 50 > $R/ncu_run_$v.log 2>&1
  echo "ncu $v rc=$? $(( $(date +%s) - t0 ))s"
  ncu --import $R/mix_$v.ncu-rep --page details > $R/mix_${v}_details.txt 2>&1
  ncu --import $R/mix_$v.ncu-rep --page source --csv --print-source sass > $R/mix_${v}_sass.csv 2>&1
  gzip -f $R/mix_${v}_sass.csv
  grep -E "Duration|SM Frequency|gmma|Issue Slots|Mem Busy|L2 Cache Throughput|hit_rate|lts__|xbar2l1tex|dram__bytes" $R/mix_${v}_details.txt | head -30
  python3 scripts/ncu_sass_stalls.py $R/mix_${v}_sass.csv.gz --loop > $R/mix_${v}_stalls.txt 2>&1
done
rm -f $R/*.ncu-rep
echo "end $(( $(date +%s) - t0 ))s"
