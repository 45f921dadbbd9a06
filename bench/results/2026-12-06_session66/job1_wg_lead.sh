#!/usr/bin/env bash
# Session 66: warpgroup 1 of the fp8 TMA kernel's two-warpgroup tiles started ~N K steps after
# warpgroup 0 (branch wip/fp8-wg-lead-act bb11e3f: a clock delay after the first tile's first stage,
# N x 256 cycles a weight block; MEGAMOE_FP8_TMA_WG_LEAD for the plain-D kernels (FC2),
# MEGAMOE_FP8_TMA_WG_LEAD_ACT for the activation kernels (FC1); 0 = together, as on main). Why: both
# warpgroups of a tile run its epilogue at once while the tensor cores wait (qwen3-30b-a3b T = 8192
# on an H100: FC1 74% and FC2 64% of the FP8 rate; FC2 has 6 K steps a tile). No spills (ptxas).
# Carry [".carry"]: bld.txz = the branch, bld_main.txz = main ea25027 (kernels as ccd86d4).
# 1. fp8 GPU tests at lead 3 (both knobs); 2. A/B main / both 0 / FC2 2 / FC1 2 / both 3, fp8_block
# `auto` T = 2048 / 8192, four presets, alternated; 3. racecheck + memcheck at leads 3; 4. timelines.
set -u
JB=${JB:-560}
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/bldm && tar xJf .carry/bld_main.txz -C /tmp/bldm || { echo "no .carry/bld_main.txz"; exit 1; }
cat "$R/gpu.txt"
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
for v in 3; do
  MEGAMOE_FP8_TMA_WG_LEAD=$v MEGAMOE_FP8_TMA_WG_LEAD_ACT=$v timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$F" > "$R/tests_lead$v.log" 2>&1
  echo "tests lead=$v rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_lead$v.log" | head -8
done
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
L=MEGAMOE_FP8_TMA_WG_LEAD A=MEGAMOE_FP8_TMA_WG_LEAD_ACT
ab_variants "main=/tmp/bldm/megamoe lead0=$B/megamoe fc2_2=$B/megamoe@$L=2 fc1_2=$B/megamoe@$A=2 both3=$B/megamoe@$L=3@$A=3" \
  70 "$((JB - 150))" "fp8=--recipe fp8_block --presets $P --tokens 2048,8192 --iters 50"
for v in fc2_2 fc1_2 both3; do
  python3 scripts/ab_compare.py "$R/ab" lead0 $v > "$R/ab_lead0_$v.txt" 2>&1; echo "== lead0 vs $v"; grep -E "geomean|ALL" "$R/ab_lead0_$v.txt"
done
MEGAMOE_FP8_TMA_WG_LEAD=3 MEGAMOE_FP8_TMA_WG_LEAD_ACT=3 gpu_sanitizers \
  'Fp8Gemm.BothTacticsMatchFloat64Product:Fp8Gemm.ManyTilesPerCta:Fp8Gemm.DynamicOrderRunsEveryTileOnce' 40 racecheck memcheck
for v in 0 2; do
  [ "$(left $((JB - 5)))" -lt 35 ] && break
  MEGAMOE_FP8_TMA_WG_LEAD=$v MEGAMOE_FP8_TMA_WG_LEAD_ACT=$v ktrace_bench "lead${v}_qwen3" -- --recipe fp8_block --presets qwen3-30b-a3b --tokens 8192
done
echo "end $(el)s"
