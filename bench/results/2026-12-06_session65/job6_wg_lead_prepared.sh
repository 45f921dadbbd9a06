#!/usr/bin/env bash
# Session 65, prepared (not run). The fp8 TMA kernel's plain-D kernels (FC2) with warpgroup 1 started
# MEGAMOE_FP8_TMA_WG_LEAD K steps after warpgroup 0 (branch wip/fp8-wg-lead 97b5540; 0 = together, as
# on main, but the branch's plain kernels carry the arrival test in their K loop and one more barrier:
# the main binary is the control). Why: both warpgroups of a tile store its bf16 D at once while the
# tensor cores wait; qwen3-30b-a3b's FC2 (6 K steps a tile) ran at 64% of the FP8 rate on an H100
# against FC1's 74% (session 61's timeline). Carry [".carry"]: bld.txz = wip/fp8-wg-lead 97b5540,
# bld_main.txz = main's binary (scripts/pack_carry.sh on each, the second renamed). JB: the job's budget.
# 1. fp8 GPU tests at lead 2 and 3; 2. A/B main / lead 0 / 2 / 3: fp8_block `auto` T = 2048 / 8192,
# four presets (the cells whose table tactic runs FC2 on our TMA kernel see the change), alternated;
# 3. racecheck / memcheck on the fp8 GEMM tests at lead 3; 4. kernel timelines of qwen3-30b-a3b
# T = 8192 at lead 0 / 2.
set -u
JB=${JB:-480}
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/bldm && tar xJf .carry/bld_main.txz -C /tmp/bldm || { echo "no .carry/bld_main.txz"; exit 1; }
cat "$R/gpu.txt"
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
for v in 2 3; do
  MEGAMOE_FP8_TMA_WG_LEAD=$v timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_lead$v.log" 2>&1
  echo "tests lead=$v rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_lead$v.log" | head -8
done
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/bldm/megamoe lead0=$B/megamoe@MEGAMOE_FP8_TMA_WG_LEAD=0 lead2=$B/megamoe@MEGAMOE_FP8_TMA_WG_LEAD=2 lead3=$B/megamoe@MEGAMOE_FP8_TMA_WG_LEAD=3" \
  RUN_TIMEOUT=70 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "$((JB - 130))" \
  "fp8=--recipe fp8_block --presets $P --tokens 2048,8192 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
for pair in "lead0 lead2" "lead0 lead3"; do
  python3 scripts/ab_compare.py "$R/ab" $pair > "$R/ab_${pair// /_}.txt" 2>&1; echo "== $pair"; grep -E "geomean|ALL" "$R/ab_${pair// /_}.txt"
done
MEGAMOE_FP8_TMA_WG_LEAD=3 gpu_sanitizers 'Fp8Gemm.BothTacticsMatchFloat64Product:Fp8Gemm.ManyTilesPerCta:Fp8Gemm.DynamicOrderRunsEveryTileOnce' 40 racecheck memcheck
for v in 0 2; do
  [ "$(left $((JB - 5)))" -lt 35 ] && break
  MEGAMOE_FP8_TMA_WG_LEAD=$v ktrace_bench "lead${v}_qwen3" -- --recipe fp8_block --presets qwen3-30b-a3b --tokens 8192
done
echo "end $(el)s"
