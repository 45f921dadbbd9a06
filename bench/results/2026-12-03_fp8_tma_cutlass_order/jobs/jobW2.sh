#!/usr/bin/env bash
# W2: (1) ncu (clocks not locked) of FC1 at mixtral-8x7b T = 8192: HEAD's split_tma kernel and CUTLASS's
# large tile: SpeedOfLight, WarpStateStats, SourceCounters (SASS stall sampling), memory tables, shared
# memory wavefronts. (2) per-kernel durations at qwen3-30b-a3b T = 128 (bf16, fp8_block): our `auto`
# forward and vLLM's Triton fused MoE, each kernel with the caches flushed (ncu --cache-control all).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
t0=$(date +%s)
mkdir -p /tmp/basetree && tar cf - --exclude=./build-dn --exclude=./build-db --exclude=./.git . | tar xf - -C /tmp/basetree
if [ -s .snap/mine.patch ]; then (cd /tmp/basetree && patch -R -p1 < .snap/mine.patch > /dev/null && echo "base tree ok"); fi
cmake -S /tmp/basetree -B /tmp/build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_TESTS=OFF ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
ninja -C /tmp/build-base -j16 megamoe_cli > $R/build_base.log 2>&1; echo "build base rc $? $(( $(date +%s) - t0 ))s"
X=/tmp/build-base/megamoe
export MEGAMOE_TACTIC_CACHE=off
S="--clock-control none --section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed"
for v in base cutlass; do
  tac=split_tma; k='regex:fp8_tma'
  [ $v = cutlass ] && { tac=split_large_tile; k='regex:device_kernel|Gemm'; }
  timeout 150 ncu $S -k "$k" -c 1 -o $R/mix_$v $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets mixtral-8x7b --tokens 8192 --iters 50 > $R/ncu_run_$v.log 2>&1
  echo "ncu $v rc=$? $(( $(date +%s) - t0 ))s"
  ncu --import $R/mix_$v.ncu-rep --page details > $R/mix_${v}_details.txt 2>&1
  ncu --import $R/mix_$v.ncu-rep --page source --csv --print-source sass > $R/mix_${v}_sass.csv 2>&1
  gzip -f $R/mix_${v}_sass.csv
  grep -E "Duration|SM Frequency|gmma|Shared|Issue Slots|Warp Cycles Per Issued|Mem Busy|Max Bandwidth|L2 Cache Throughput|bank" $R/mix_${v}_details.txt | head -30
done
rm -f $R/*.ncu-rep

