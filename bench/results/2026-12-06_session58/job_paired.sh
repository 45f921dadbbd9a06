#!/usr/bin/env bash
# Session 58: the fp8_block FC1 with the activation epilogue on the WidePaired geometry
# (MEGAMOE_FP8_TMA_ACT_PAIRED=1, branch wip/fp8-tma-paired): a K step loads a gate block and its up
# block (128 weight rows each) beside the 128-row token tile, so one K loop makes a 128-column output
# block (Wide: two K loops of 64 gate + 64 up rows and a stash). Why: a quarter less L2-to-SM traffic
# per MMA, half the barrier waits and scale loads per MMA; under the 700 W cap bytes cost clock.
# Carry [".carry"]: bld.txz = the branch's binaries (/work/carry-stash/paired_v1.txz).
# 1. fp8 GEMM tests + the fp8 backends' conformance cases with the knob on (bit-exact against the
#    separate activation-quantize kernel; every_tactic end to end against the CPU reference);
# 2. A/B wide / paired, forced split_tma_act and split_tma_act_large_fc2, T = 2048 / 8192, four
#    presets; split_large_tile (what `auto` runs at T = 8192; the knob does not touch it) as the
#    A/A spread;
# 3. memcheck / racecheck / synccheck on the fused-activation test with the knob on.
set -u
source scripts/device_env.sh
carried_job_start
F='Fp8Gemm.*:Registered/Conformance.*fp8_fp8_bf16*'
MEGAMOE_FP8_TMA_ACT_PAIRED=1 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_paired.log" 2>&1
echo "tests paired=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_paired.log" | head -8
grep -E "fused act\].*bias 0 narrow 0" "$R/tests_paired.log" | head -3
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
AB_END=${AB_END:-380} knob_ab MEGAMOE_FP8_TMA_ACT_PAIRED "wide=0 paired=1" 150 \
  "act=$S --tactic split_tma_act --tokens 2048,8192" \
  "fc2=$S --tactic split_tma_act_large_fc2 --tokens 2048,8192" \
  "large=$S --tactic split_large_tile --tokens 8192"
echo "ab end $(el)s"
MEGAMOE_FP8_TMA_ACT_PAIRED=1 gpu_sanitizers 'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' 100 memcheck racecheck synccheck
echo "end $(el)s"
