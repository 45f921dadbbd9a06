#!/usr/bin/env bash
# U4: ncu of the tokens-in-M fp8 TMA kernel, mixtral-8x7b and deepseek-v3 T = 8192: FC1 + FC2 sections, FC1 SASS stall sampling, FC1 with the act epilogue.
set -u
source .snap/env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
X=$BN/megamoe
export MEGAMOE_TACTIC_CACHE=off
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum"
for P in mixtral-8x7b deepseek-v3; do
  for tac in split_tma split_tma_act; do
    timeout 120 ncu $S -k regex:fp8_tma -c 2 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 8192 --iters 50 > $R/ncu_${P}_${tac}.txt 2>&1
    echo "ncu $P $tac rc=$?"
    grep -E "fp8_tma_kernel|Duration|Compute \(SM\) Throughput|gmma|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|L2 Hit|DRAM Throughput|Registers Per" $R/ncu_${P}_${tac}.txt | head -30
  done
done
timeout 150 ncu --section WarpStateStats --section SourceCounters --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio -k regex:fp8_tma -c 1 -o $R/mix_tma $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets mixtral-8x7b --tokens 8192 --iters 50 > $R/ncu_sass_run.log 2>&1
echo "ncu sass rc=$?"
ncu --import $R/mix_tma.ncu-rep --page details > $R/mix_tma_details.txt 2>&1
ncu --import $R/mix_tma.ncu-rep --page source --csv --print-source sass > $R/mix_tma_sass.csv 2>&1
gzip $R/mix_tma_sass.csv; rm -f $R/mix_tma.ncu-rep
grep -iE "stall|warp cycles" $R/mix_tma_details.txt | head -30
