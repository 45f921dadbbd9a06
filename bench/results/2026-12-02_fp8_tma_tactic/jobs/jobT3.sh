#!/usr/bin/env bash
# Device job T3: ncu of the fp8 TMA tactic's GEMMs vs the CUTLASS large tile at T = 8192.
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_new.log 2>&1
ninja -C $BN -j16 megamoe_cli > $R/build_new.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
X=$BN/megamoe
export MEGAMOE_TACTIC_CACHE=off
for P in deepseek-v3 mixtral-8x7b; do
  for tac in split_tma split_large_tile; do
    timeout 200 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum -k regex:'fp8_tma|device_kernel|Gemm|gemm' -c 2 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 8192 --iters 50 > $R/ncu_${P}_${tac}.txt 2>&1
    echo "ncu $P $tac rc=$?"
    grep -E "fp8_tma_kernel|device_kernel|Duration|Compute \(SM\) Throughput|Memory Throughput|gmma|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Stall|L2 Hit|DRAM Throughput" $R/ncu_${P}_${tac}.txt | head -40
  done
done
