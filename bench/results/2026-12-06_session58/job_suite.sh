#!/usr/bin/env bash
# Session 58, seventh call: the whole GPU test binary at 652e747 (the branch to merge) in four shards,
# then kernel timelines of fp8_block deepseek-v3 T = 8192 with `split_tma_act` (both GEMMs ours, on
# WidePaired) and `split_large_tile` (CUTLASS's, what `auto` still runs there): which GEMM keeps the
# gap. Carry [".carry"]: bld.txz = /work/carry-stash/paired_ship2.txz.
set -u
source scripts/device_env.sh
carried_job_start
sharded_gpu_tests suite 300
for t in split_tma_act split_large_tile split_tma_act_large_fc2; do
  ktrace_bench "ds_$t" -- --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $t --presets deepseek-v3 --tokens 8192
done
echo "end $(el)s"
