#!/usr/bin/env bash
# Prepared in session 42 (not run: no device time left). Why are the W4A16 small GEMMs at T = 1 far
# from the stream rate (gpt-oss-120b FC1 1.80 TB/s on 180 CTAs, FC2 1.40 TB/s on 92; deepseek-v3 3.19 /
# 2.44 TB/s; ../2026-12-04_w4a16_small_ncu/), when neither a deeper ring (3 stages in flight), 8-row
# token boxes nor a per-GEMM K split changed them? Session 41/42's ncu pages had no stall breakdown.
# This collects, for FC1 and FC2 at T = 1 (`auto`: split_small_k1, FC1 with the activation epilogue):
#   - the warp-state stall percentages (per warp active) by reason;
#   - SourceCounters (sampled stalls per SASS instruction), printed as the source page in SASS;
#   - the launch's waves / achieved occupancy (LaunchStats, Occupancy).
# .carry/head.txz: megamoe of e90518b (the CPU machine's /work/carry-stash/e90518b.txz; xz: tar xJf).
# ~60 s of device time. Read: which instructions of the K loop carry the stalls (the full / empty
# barrier waits, the LDS of codes / scales, the HMMA chain, the decode's ALU), per preset.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head && tar xJf .carry/head.txz -C /tmp/head || exit 1
STALLS=""
for s in long_scoreboard short_scoreboard barrier membar mio_throttle lg_throttle math_pipe_throttle \
         tex_throttle wait not_selected selected no_instruction branch_resolving dispatch_stall drain \
         imc_miss sleeping misc; do
  STALLS="$STALLS,smsp__warp_issue_stalled_${s}_per_warp_active.pct"
done
S="--clock-control none --cache-control all --section WarpStateStats --section SourceCounters --section LaunchStats --section Occupancy --section SpeedOfLight --metrics dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum${STALLS}"
for p in gpt-oss-120b deepseek-v3; do
  timeout 150 ncu $S -k regex:w4a16_small -c 2 -o $R/st_$p /tmp/head/megamoe bench --recipe w4a16_mxfp4 \
    --presets $p --tokens 1 --iters 50 > $R/ncu_$p.log 2>&1
  echo "ncu $p rc=$? $(( $(date +%s) - t0 ))s"
  ncu --import $R/st_$p.ncu-rep --page details --print-details all > $R/st_${p}_details.txt 2>&1
  ncu --import $R/st_$p.ncu-rep --page raw --csv --metrics "gpu__time_duration.sum${STALLS}" > $R/st_${p}_stalls.csv 2>&1
  ncu --import $R/st_$p.ncu-rep --page source --print-source sass --csv > $R/st_${p}_source.csv 2>&1
  echo "  source page rc=$? lines $(wc -l < $R/st_${p}_source.csv)"
  python3 scripts/ncu_stall_table.py "$R/st_${p}_stalls.csv"
  rm -f $R/st_$p.ncu-rep
done
echo "end $(( $(date +%s) - t0 ))s"
