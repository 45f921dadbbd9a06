#!/usr/bin/env bash
# Prepared in session 34 (not run: no device time left). Where the fused FC1 (split_tma_act) spends
# the ~6.5 us per tile it takes beyond the plain FC1 at qwen3-30b-a3b T = 128 (job3: 160.6 against
# 115.6 + 6.8 us; job4: 2.76 against 3.74 TB/s on the same bytes; job5 / job7: not the sub-tile order,
# not the weight boxes' layout, not the stores). ncu with source counters (stall reasons per SASS line)
# of both FC1 kernels, and the layer with the activation math replaced by a = g
# (MEGAMOE_DIAG_ACT_NO_MATH, act_no_math.patch: activate() returns g + u) against base.
# Binaries: .carry/base.tgz (the tree, built on the CPU machine), .carry/nomath.tgz (local_variant.sh
# of grouped_gemm_fp8_tma_act.cu with -DMEGAMOE_DIAG_ACT_NO_MATH).
# Run from the repository root: bash bench/results/2026-12-03_fp8_small_T_token_box/job8_prepared.sh
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/base /tmp/nomath && tar xzf .carry/base.tgz -C /tmp/base || exit 1
[ -f .carry/nomath.tgz ] && tar xzf .carry/nomath.tgz -C /tmp/nomath
export MEGAMOE_TACTIC_CACHE=off
S="--clock-control none --cache-control all --section SpeedOfLight --section WarpStateStats --section SourceCounters --section SchedulerStats"
for t in split_tma split_tma_act; do
  timeout 150 ncu $S -k regex:fp8_tma -c 1 -o $R/src_$t /tmp/base/megamoe bench --recipe fp8_block \
    --backend sm90_fp8_fp8_bf16_split --tactic $t --presets qwen3-30b-a3b --tokens 128 --iters 50 > $R/ncu_$t.log 2>&1
  echo "ncu $t rc=$? $(( $(date +%s) - t0 ))s"
  ncu --import $R/src_$t.ncu-rep --page source --csv --print-source sass > $R/src_${t}_sass.csv 2>&1
  python3 scripts/ncu_sass_stalls.py $R/src_${t}_sass.csv 2>&1 | head -40
  # every stall reason of the kernel (one candidate: the fused kernel's ~65 KB of SASS against the plain
  # kernel's ~16 KB, its epilogue ~3000 straight-line instructions a tile: "no instruction" stalls)
  ncu --import $R/src_$t.ncu-rep --page raw 2>&1 | grep -E "smsp__average_warp.*issue_stalled|warp_issue_stalled_(no_instruction|long_scoreboard|barrier|wait)" | head -30
done
if [ -x /tmp/nomath/megamoe ]; then
  C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets qwen3-30b-a3b,gpt-oss-120b --tokens 128,512 --iters 50 --tactic split_tma_act"
  for rep in 1 2; do for v in base nomath; do
    timeout 60 /tmp/$v/megamoe bench $C --json "$R/${v}_act_r$rep.json" > "$R/${v}_act_r$rep.log" 2>&1
  done; done
  python3 scripts/ab_compare.py "$R" base nomath
fi
echo "end $(( $(date +%s) - t0 ))s"
