#!/usr/bin/env bash
# Session 62: the fp8 TMA kernel on 192-row passes (Geometry<3>, "Tall": three consumer warpgroups,
# one 128-row weight block a step; grouped_gemm_fp8_tma.cuh on branch wip/fp8-tall), against
# WidePaired (two warpgroups, 128-row passes, two weight blocks a step). Knob MEGAMOE_FP8_TMA_TALL:
# bit 0 FC1's gated activation kernel, bit 1 the plain (FC2) kernels; 0 = main's kernels.
# Carry [".carry"]: bld.txz = wip/fp8-tall (b5bfb38). JB: the job's own budget in seconds.
# 1. fp8 GPU tests with the knob at 3; 2. A/B off / fc1 (1) / both (3): fp8_block `auto`
# T = 1024..16384, four presets, until JB - 100 s; 3. memcheck / racecheck / synccheck on the fp8
# GEMM tests at 3; 4. the fp8 tests at 0; 5. kernel timelines of deepseek-v3 T = 8192 off / both.
set -u
JB=${JB:-480}
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
F='Fp8Gemm.*:Fp8Block.*:Registered/Conformance.*fp8_fp8_bf16*'
MEGAMOE_FP8_TMA_TALL=3 timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_tall.log" 2>&1
echo "tests tall rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_tall.log" | head -12
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="off=$B/megamoe@MEGAMOE_FP8_TMA_TALL=0 fc1=$B/megamoe@MEGAMOE_FP8_TMA_TALL=1 both=$B/megamoe@MEGAMOE_FP8_TMA_TALL=3" \
  RUN_TIMEOUT=70 scripts/ab_bench.sh "$R/ab" x x 3 "$t0" "$((JB - 110))" \
  "fp8=--recipe fp8_block --presets $P --tokens 1024,2048,4096,8192,16384 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
MEGAMOE_FP8_TMA_TALL=3 gpu_sanitizers 'Fp8Gemm.BothTacticsMatchFloat64Product:Fp8Gemm.ManyTilesPerCta:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' 40 memcheck racecheck synccheck
[ "$(left $((JB - 5)))" -gt 35 ] && { timeout 30 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*:Fp8Block.*' > "$R/tests_off.log" 2>&1
  echo "tests off rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_off.log" | head -8; }
for v in off both; do
  [ "$(left $((JB - 5)))" -lt 35 ] && break
  MEGAMOE_FP8_TMA_TALL=$([ $v = off ] && echo 0 || echo 3) ktrace_bench "${v}_ds" -- --recipe fp8_block --presets deepseek-v3 --tokens 8192
done
echo "end $(el)s"
