#!/usr/bin/env bash
# Session 58, third call: the plain fp32 / bf16 D kernels of the fp8 TMA tactic on the WidePaired
# geometry too (MEGAMOE_FP8_TMA_PAIRED=1: 256 weight rows a K step, 256 output columns a tile), with
# FC1's activation kernel on WidePaired in both variants (MEGAMOE_FP8_TMA_ACT_PAIRED=1, run2: 1.021x).
# Where it runs: split_tma (FC1 and FC2), split_tma_act's FC2. Carry [".carry"]: bld.txz =
# wip/fp8-tma-paired's binaries (/work/carry-stash/paired_v2.txz).
set -u
source scripts/device_env.sh
carried_job_start
F='Fp8Gemm.*:Registered/Conformance.*fp8_fp8_bf16*'
MEGAMOE_FP8_TMA_PAIRED=1 MEGAMOE_FP8_TMA_ACT_PAIRED=1 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_paired.log" 2>&1
echo "tests paired=1 act_paired=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_paired.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
AB_END=${AB_END:-380} knob_ab MEGAMOE_FP8_TMA_PAIRED \
  "wide=0@MEGAMOE_FP8_TMA_ACT_PAIRED=1 pair=1@MEGAMOE_FP8_TMA_ACT_PAIRED=1" 150 \
  "act=$S --tactic split_tma_act --tokens 2048,8192" \
  "tma=$S --tactic split_tma --tokens 2048,8192" \
  "fc2=$S --tactic split_tma_act_large_fc2 --tokens 8192" \
  "large=$S --tactic split_large_tile --tokens 8192"
echo "ab end $(el)s"
MEGAMOE_FP8_TMA_PAIRED=1 MEGAMOE_FP8_TMA_ACT_PAIRED=1 gpu_sanitizers 'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.PitchedRowsSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' 150 memcheck racecheck synccheck
echo "end $(el)s"
