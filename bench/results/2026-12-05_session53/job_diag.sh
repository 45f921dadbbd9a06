#!/usr/bin/env bash
# Session 53, diagnosis only (no kernel change): (1) per kernel (ktrace), our bf16 large-T GEMM
# (`split_large_tma`) against CUTLASS's large tile (`split_large_tile`) at qwen3-30b-a3b and
# deepseek-v3 T = 8192 / 16384, both GEMMs each way: how far our FC1 is from CUTLASS's where `auto`
# keeps CUTLASS (what a permute-free FC1 that gathers x rows would have to make up); (2) ncu of the
# two FC1 GEMMs at qwen3-30b-a3b T = 8192, W4A16's TMA tactic against CUTLASS's bf16 tile:
# shared-memory bank traffic, L1 throughput, tensor-pipe activity. Carry [".carry"]. ~200 s.
set -u
source scripts/device_env.sh
carried_job_start
one() {  # one NAME -- megamoe bench args...
  local name=$1; shift 2
  scripts/ktrace/trace.sh "$R/tl_$name" -- $B/megamoe bench "$@" --iters 50 --json "$R/b_$name.json" > /tmp/tl.txt
  echo "== $name rc=$? $(el)s $(python3 -c "import json;x=json.load(open('$R/b_$name.json'))[0];print(x['tactic'],round(x['median_ms']*1000,1),'us')" 2>&1)"
  grep -E "^ +[0-9]+ |span" /tmp/tl.txt
}
for p in qwen3-30b-a3b deepseek-v3; do
  for T in 8192 16384; do
    for tac in split_large_tile split_large_tma; do
      MEGAMOE_TACTIC_CACHE=off one "bf16_${p}_${T}_${tac}" -- --recipe bf16 --backend sm90_bf16_bf16_bf16_split \
        --tactic $tac --presets $p --tokens $T
    done
  done
done
M=gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_bytes.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
S="--section SpeedOfLight --section MemoryWorkloadAnalysis_Tables"
MEGAMOE_TACTIC_CACHE=off timeout 150 scripts/ncu_kernels.sh "$R/ncu_w4_fc1" "w4a16_tma" 1 140 "$S" "$M" -- \
  $B/megamoe bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma_fc1 \
  --presets qwen3-30b-a3b --tokens 8192 --iters 50
echo "ncu w4 rc=$? $(el)s"
MEGAMOE_TACTIC_CACHE=off timeout 150 scripts/ncu_kernels.sh "$R/ncu_bf16_fc1" "device_kernel|Gemm" 2 140 "$S" "$M" -- \
  $B/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tile \
  --presets qwen3-30b-a3b --tokens 8192 --iters 50
echo "ncu bf16 rc=$? $(el)s"
echo "end $(el)s"
