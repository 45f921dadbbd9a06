#!/usr/bin/env bash
# Session 53, diagnosis only (no kernel change): (1) per kernel (ktrace), our bf16 large-T GEMM
# (`split_large_tma`) against CUTLASS's large tile (`split_large_tile`) at qwen3-30b-a3b and
# deepseek-v3 T = 8192 / 16384, both GEMMs each way: how far our FC1 is from CUTLASS's where `auto`
# keeps CUTLASS (what a permute-free FC1 that gathers x rows would have to make up). Carry [".carry"].
# ~45 s. (As run, run3_diag, it had a second half: ncu of the FC1 GEMMs, whose kernel-name regexes
# matched no kernel; that half is job_ncu.sh with the names fixed, run6_ncu.)
set -u
source scripts/device_env.sh
carried_job_start
for p in qwen3-30b-a3b deepseek-v3; do
  for T in 8192 16384; do
    for tac in split_large_tile split_large_tma; do
      MEGAMOE_TACTIC_CACHE=off ktrace_bench "bf16_${p}_${T}_${tac}" -- --recipe bf16 --backend sm90_bf16_bf16_bf16_split \
        --tactic $tac --presets $p --tokens $T
    done
  done
done
echo "end $(el)s"
