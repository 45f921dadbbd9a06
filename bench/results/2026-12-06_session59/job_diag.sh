#!/usr/bin/env bash
# Session 59, last call: two diagnostics of the fp8 TMA kernel at T = 8192 (what bounds its K steps).
# Carry [".carry"]: bld.txz = main f5ce56f (kernels = 1e776b8's), cl.txz = the two-CTA cluster build
# (cluster_v1.txz), diag.txz = main with 3 stages instead of 4 in WidePaired (megamoe only).
# 1. ncu of deepseek-v3's FC1 (split_tma_act) without and with clusters on the same GPU: runs 1 and 3
#    profiled them on different GPUs (H100, H200);
# 2. A/B main / 3 stages: if the steps are bound by the bytes in flight (Little's law: 4 stages of
#    48 KB against the load latency), a quarter fewer stages costs up to a third more time.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/bc /tmp/bd && tar xJf .carry/cl.txz -C /tmp/bc && tar xJf .carry/diag.txz -C /tmp/bd
M="gpu__time_duration.sum,lts__t_bytes.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg"
for v in main:$B/megamoe:0 cl:/tmp/bc/megamoe:2; do
  n=${v%%:*}; rest=${v#*:}; bin=${rest%%:*}; c=${rest##*:}
  MEGAMOE_FP8_TMA_CLUSTER=$c scripts/ncu_kernels.sh "$R/nc_$n" fp8_tma_kernel 1 120 \
    "--section SpeedOfLight --section MemoryWorkloadAnalysis" "$M" -- \
    $bin run --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --preset deepseek-v3 --recipe fp8_block --tokens 8192 --iters 2 --no-check
  echo "ncu $n rc=$? $(el)s"
  grep -E "Duration|L2 Cache Throughput|Pipe Tensor Cycles Active  |DRAM Throughput|Lts2xbar|lts__t_bytes" "$R/nc_${n}_details.txt" | head -7
done
P=deepseek-v3,qwen3-30b-a3b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50 --tokens 8192"
mkdir -p "$R/ab"
AB_VARIANTS="main=$B/megamoe s3=/tmp/bd/megamoe" RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-260}" \
  "act=$S --tactic split_tma_act" "tma=$S --tactic split_tma" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
