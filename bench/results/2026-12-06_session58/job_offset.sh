#!/usr/bin/env bash
# Session 58, eighth call: branch wip/fp8-tma-offset (main + MEGAMOE_FP8_TMA_WG_OFFSET): the fp8 TMA
# kernel's consumer warpgroup 1 starts its first MMAs only once warpgroup 0's first have completed
# (named barrier 3, once per CTA). Why: both warpgroups wait on the same full barrier and share the
# tensor cores in issue order, so they run in lockstep and promote at the same time while the
# tensor cores idle (ncu 2026-12-02); started half a step apart, one promotes while the other's MMAs
# run, and the in-order tensor pipe keeps them apart. Carry [".carry"]: /work/carry-stash/offset_v1.txz.
set -u
source scripts/device_env.sh
carried_job_start
F='Fp8Gemm.*:Registered/Conformance.*fp8_fp8_bf16*'
MEGAMOE_FP8_TMA_WG_OFFSET=1 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_offset.log" 2>&1
echo "tests offset=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_offset.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
AB_END=${AB_END:-170} knob_ab MEGAMOE_FP8_TMA_WG_OFFSET "lock=0 offset=1" 150 \
  "act=$S --tactic split_tma_act --tokens 2048,8192" \
  "tma=$S --tactic split_tma --tokens 2048,8192"
echo "ab end $(el)s"
MEGAMOE_FP8_TMA_WG_OFFSET=1 gpu_sanitizers 'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' 100 racecheck synccheck
echo "end $(el)s"
