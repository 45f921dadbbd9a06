#!/usr/bin/env bash
# Prepared in session 44 (not run). Optional, after `job.sh check` passed: where a 64-K step of the TMA
# tactic goes in the shipped form and in the two register-A forms (.carry/lrs.txz, branch
# wip/large-rs), per kernel (FC1 with its activation epilogue, FC2) at T = 8192, forced
# split_large_tma: duration, shared-memory wavefronts, tensor-pipe activity, issue-slot use, warp
# stall reasons and per-SASS-instruction stall samples:
#   base  MEGAMOE_W4A16_LARGE_RS=0 (what ships)
#   rs1   MEGAMOE_W4A16_LARGE_RS=1 (passes of <= 256 tokens)
#   rs2   MEGAMOE_W4A16_LARGE_RS=2 (passes of <= 320 tokens as two 160-wide MMAs)
# on mixtral-8x7b (2048 rows an expert) and deepseek-v3 (256 +- 16). ~300 s of device time.
# Reading: if the register-A forms cut the shared-memory wavefronts by ~1/4 but the duration does not
# follow, the step is not bound by the shared-memory path; a top stall of wait / math on the consumers
# says the decode now sits on the MMA warps' critical path.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/lrs && tar xJf .carry/lrs.txz -C /tmp/lrs || exit 1
M="gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"
M="$M,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed"
SEC="--section WarpStateStats --section SourceCounters --section LaunchStats --section SpeedOfLight"
for v in base:0 rs1:1 rs2:2; do
  name=${v%%:*} knob=${v#*:}
  for p in mixtral-8x7b deepseek-v3; do
    [ $(( $(date +%s) - t0 )) -gt 480 ] && { echo "skip $name $p (time)"; continue; }
    MEGAMOE_W4A16_LARGE_RS=$knob scripts/ncu_kernels.sh "$R/st_${name}_$p" w4a16_large_tma 2 150 "$SEC" "$M" -- \
      /tmp/lrs/megamoe bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma \
      --presets $p --tokens 8192 --iters 50
    echo "ncu $name $p rc=$? $(( $(date +%s) - t0 ))s"
  done
done
echo "end $(( $(date +%s) - t0 ))s"
