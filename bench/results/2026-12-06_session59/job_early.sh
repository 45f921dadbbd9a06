#!/usr/bin/env bash
# Session 59, third call. Carry [".carry"]: bld.txz = main 1618a24 (MEGAMOE_FP8_TMA_EARLY_DRAW knob,
# off by default; /work/carry-stash/early_v1.txz), main.txz = 1e776b8 (main_1e776b8.txz), cl.txz =
# wip/fp8-tma-cluster f3e8710's kernels before the WidePaired guard (cluster_v1.txz).
# 1. fp8 tests + conformance with the early draw, memcheck / racecheck on the small fp8 GEMM tests;
# 2. ncu of deepseek-v3 T = 8192's FC1 with two-CTA clusters (run 2: 1.00x / 1.02x over clusters off):
#    did the L2's throughput fall (95% in run 1) while the time stayed?
# 3. uniform against balanced routing at T = 8192 (what the ragged last passes cost);
# 4. A/B main / early draw off / on, forced split_tma_act T = 2048 / 8192 and split_tma T = 8192.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 /tmp/bc && tar xJf .carry/main.txz -C /tmp/b0 && tar xJf .carry/cl.txz -C /tmp/bc
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
MEGAMOE_FP8_TMA_EARLY_DRAW=1 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_early.log" 2>&1
echo "tests early=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_early.log" | head -8
MEGAMOE_FP8_TMA_EARLY_DRAW=1 gpu_sanitizers \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.DynamicOrderRunsEveryTileOnce' 100 \
  memcheck racecheck
M="gpu__time_duration.sum,lts__t_bytes.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg"
MEGAMOE_FP8_TMA_CLUSTER=2 scripts/ncu_kernels.sh "$R/nc_cl" fp8_tma_kernel 1 120 \
  "--section SpeedOfLight --section MemoryWorkloadAnalysis" "$M" -- \
  /tmp/bc/megamoe run --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --preset deepseek-v3 --recipe fp8_block --tokens 8192 --iters 2 --no-check
echo "ncu cluster rc=$? $(el)s"
grep -E "Duration|L2 Cache Throughput|Pipe Tensor Cycles Active  |DRAM Throughput|Lts2xbar|T Sectors  " "$R/nc_cl_details.txt" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
for rt in balanced uniform; do
  timeout 100 $B/megamoe bench $S --tactic split_tma_act --tokens 8192 --routing $rt --json "$R/route_$rt.json" > "$R/route_$rt.txt" 2>&1
  echo "routing $rt rc=$? $(el)s"; python3 -c "
import json
for x in json.load(open('$R/route_$rt.json')): print('  ', x.get('model'), x.get('tokens'), round(x['median_ms']*1000,1), 'us')"
done
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/b0/megamoe off=$B/megamoe@MEGAMOE_FP8_TMA_EARLY_DRAW=0 early=$B/megamoe@MEGAMOE_FP8_TMA_EARLY_DRAW=1" \
  RUN_TIMEOUT=150 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-540}" \
  "act=$S --tactic split_tma_act --tokens 2048,8192" "tma=$S --tactic split_tma --tokens 8192" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
