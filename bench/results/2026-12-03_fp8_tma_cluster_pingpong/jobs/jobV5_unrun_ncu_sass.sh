#!/usr/bin/env bash
# V5: ncu source-level (SASS) stall sampling + memory workload tables: FC1 of mixtral-8x7b T = 8192, our split_tma kernel (HEAD) and the CUTLASS large tile.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
X=$BN/megamoe
timeout 40 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm.log 2>&1
echo "Fp8Gemm rc=$?"; grep -E "FAILED|PASSED" $R/fp8gemm.log | head -3
export MEGAMOE_TACTIC_CACHE=off
S="--section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__cycles_active.avg"
for tac in split_tma split_large_tile; do
  k='regex:fp8_tma'; [ $tac = split_large_tile ] && k='regex:device_kernel|Gemm'
  timeout 110 ncu $S -k "$k" -c 1 -o $R/mix_$tac $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets mixtral-8x7b --tokens 8192 --iters 20 > $R/ncu_run_$tac.log 2>&1
  echo "ncu $tac rc=$? $(( $(date +%s) - t0 ))s"
  ncu --import $R/mix_$tac.ncu-rep --page details > $R/mix_${tac}_details.txt 2>&1
  ncu --import $R/mix_$tac.ncu-rep --page source --csv --print-source sass > $R/mix_${tac}_sass.csv 2>&1
  gzip -f $R/mix_${tac}_sass.csv
  grep -E "Duration|SM Frequency|gmma|Shared|Issue Slots|Warp Cycles Per Issued|Mem Busy|Max Bandwidth|L2 Cache Throughput" $R/mix_${tac}_details.txt | head -24
done
rm -f $R/*.ncu-rep
