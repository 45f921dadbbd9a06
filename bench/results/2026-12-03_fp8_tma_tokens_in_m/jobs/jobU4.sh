#!/usr/bin/env bash
# U4: ncu of the tokens-in-M fp8 TMA kernel, mixtral-8x7b T = 8192: FC1 + FC2 of split_tma, FC1 of split_tma_act.
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
X=$BN/megamoe
export MEGAMOE_TACTIC_CACHE=off
S="--section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__cycles_active.avg"
for tac in split_tma split_tma_act; do
  c=2; [ $tac = split_tma_act ] && c=1
  timeout 60 ncu $S -k regex:fp8_tma -c $c $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets mixtral-8x7b --tokens 8192 --iters 50 > $R/ncu_mixtral_${tac}.txt 2>&1
  echo "ncu $tac rc=$?"
  grep -E "fp8_tma_kernel|Duration|Compute \(SM\) Throughput|gmma|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|stalled|wavefronts|L2 Hit|DRAM Throughput" $R/ncu_mixtral_${tac}.txt | head -40
done
