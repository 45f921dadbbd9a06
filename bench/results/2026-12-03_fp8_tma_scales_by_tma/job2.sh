#!/usr/bin/env bash
# 2026-12-03 (session 32). run1 / run2 of job.sh stopped on the rank-1 scale maps (run2: every
# launch an illegal instruction at the scale warp's first TMA load). This job first runs
# probe/tma_1d_probe.cu (fp32 boxes through rank-1 and rank-2 maps, one case a process), then the
# standard A/B of scales_by_tma_rank2.patch (the scales through one-row rank-2 maps). From the
# repository root, with the patch applied:
#   bash bench/results/2026-12-03_fp8_tma_scales_by_tma/job2.sh
d=bench/results/2026-12-03_fp8_tma_scales_by_tma
mkdir -p "$OUT"
nvcc -arch=sm_90a -o /tmp/tma_probe $d/probe/tma_1d_probe.cu -lcuda > "$OUT/probe.log" 2>&1
for c in "1 128 0 1 0" "1 128 5 1" "1 128 5 0" "1 4 3 0" "1 4 3 1" "1 128 900 1" \
         "2 128 5 1" "2 4 3 1" "2 4 998 1" "2 128 900 1"; do
  timeout 20 /tmp/tma_probe $c >> "$OUT/probe.log" 2>&1
done
cat "$OUT/probe.log"
bash scripts/ab_fp8_tma_job.sh $d/scales_by_tma_rank2.patch 470
