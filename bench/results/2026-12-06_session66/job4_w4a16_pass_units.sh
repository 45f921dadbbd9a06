#!/usr/bin/env bash
# Session 66: the W4A16 TMA tactic's pass units (branch wip/w4a16-pass-units a47c15b,
# MEGAMOE_W4A16_TMA_PASS_UNITS=1; its plain-epilogue kernels only, i.e. FC2): one pass of one
# 128-row weight block a tile, the pass fastest, so the CTAs of a wave run the passes of a block side
# by side and read its codes from DRAM once, not once a pass. Why: session 65 timed mixtral-8x7b's
# W4A16 FC2 at T = 8192 1.18x CUTLASS's bf16 FC2 (FC1 at parity); FC2's K = 14336 makes a block's
# codes 0.9 MB, 132 blocks in flight ~120 MB, more than the L2, and each is read 7 times (7 passes).
# Carry [".carry"]: bld_pass.txz (CARRY_BLD) = the branch. 1. W4A16 GPU tests with the knob on;
# 2. A/B off / on, w4a16_mxfp4 `auto` T = 4096 / 8192 on the four presets, alternated;
# 3. racecheck on the TMA tactic's GEMM test with the knob on; 4. timelines mixtral-8x7b T = 8192 off / on.
set -u
JB=${JB:-540}
CARRY_BLD=bld_pass.txz
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
K=MEGAMOE_W4A16_TMA_PASS_UNITS
F='W4A16*:*W4A16ActEpilogue*:Registered/Conformance.*fp4*'
# A short budget (JB < 400): the GEMM tests only, the two presets with the FC2 gap, T = 8192.
SHORT=$([ "$JB" -lt 400 ] && echo 1 || echo "")
[ -n "$SHORT" ] && F='W4A16.GemmTacticsMatchCpu:W4A16.LargeTmaStagedForSanitizers:W4A16.Bf16YEqualsFp32YBitwise'
MEGAMOE_W4A16_TMA_PASS_UNITS=1 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_on.log" 2>&1
echo "tests on rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_on.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b TOK=4096,8192
[ -n "$SHORT" ] && P=qwen3-30b-a3b,mixtral-8x7b TOK=8192
ab_variants "off=$B/megamoe@$K=0 on=$B/megamoe@$K=1" 90 "$((JB - 130))" \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens $TOK --iters 50"
MEGAMOE_W4A16_TMA_PASS_UNITS=1 gpu_sanitizers 'W4A16.GemmTacticsMatchCpu:W4A16.LargeTmaStagedForSanitizers' 60 racecheck
for v in 0 1; do
  [ "$(left $((JB - 5)))" -lt 40 ] && break
  MEGAMOE_W4A16_TMA_PASS_UNITS=$v ktrace_bench "pass${v}_mixtral" -- --recipe w4a16_mxfp4 --presets mixtral-8x7b --tokens 8192
done
echo "end $(el)s"
