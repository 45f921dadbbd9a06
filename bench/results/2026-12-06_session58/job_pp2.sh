#!/usr/bin/env bash
# Session 58, fourth call. Carry [".carry"]: bld.txz = wip/fp8-tma-paired with the paired plain
# kernel's tile count fixed (run3 walked ceil(N / 128) tiles of 256 columns: half of them past N,
# computed and never stored, hence its 0.64x; /work/carry-stash/paired_v3.txz).
# 1. fp8 tests + conformance with both knobs on; 2. A/B of MEGAMOE_FP8_TMA_PAIRED (plain kernels on
# WidePaired) with FC1's activation kernel on WidePaired in both variants; 3. memcheck / racecheck;
# 4. `megamoe tune` of fp8_block T = 2048 / 4096 / 8192 on the four presets with ACT_PAIRED=1 and
# PAIRED as the A/B decided (on where its geomean is >= 1.01).
set -u
source scripts/device_env.sh
carried_job_start
R0=$R
F='Fp8Gemm.*:Registered/Conformance.*fp8_fp8_bf16*'
MEGAMOE_FP8_TMA_PAIRED=1 MEGAMOE_FP8_TMA_ACT_PAIRED=1 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_paired.log" 2>&1
echo "tests paired=1 act_paired=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_paired.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
AB_END=${AB_END:-170} knob_ab MEGAMOE_FP8_TMA_PAIRED \
  "wide=0@MEGAMOE_FP8_TMA_ACT_PAIRED=1 pair=1@MEGAMOE_FP8_TMA_ACT_PAIRED=1" 150 \
  "act=$S --tactic split_tma_act --tokens 2048,8192" \
  "tma=$S --tactic split_tma --tokens 2048,8192"
echo "ab end $(el)s"
MEGAMOE_FP8_TMA_PAIRED=1 MEGAMOE_FP8_TMA_ACT_PAIRED=1 gpu_sanitizers 'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.PitchedRowsSmall' 60 memcheck racecheck
g=$(grep -E "^ALL cells" "$R/ab.txt" | tail -1 | awk '{print $NF}')
pp=$(python3 -c "print(1 if float('${g:-0}') >= 1.01 else 0)" 2>/dev/null || echo 0)
echo "plain paired geomean ${g:-?} -> tune with MEGAMOE_FP8_TMA_PAIRED=$pp"
export MEGAMOE_FP8_TMA_ACT_PAIRED=1 MEGAMOE_FP8_TMA_PAIRED=$pp
for p in deepseek-v3 qwen3-30b-a3b gpt-oss-120b mixtral-8x7b; do
  tune_until "fp8_$p" ${TUNE_END:-555} --recipe fp8_block --presets $p --tokens 2048,4096,8192
done
echo "end $(el)s"
