#!/usr/bin/env bash
# Session 58, tenth call: branch wip/fp8-tma-dynamic: the fp8 TMA kernel's tiles in the dynamic order
# (MEGAMOE_FP8_TMA_DYNAMIC=1: the TMA lane draws each tile's ticket from the GEMM object's launch-wide
# counter when the tile's first stage is free; the scale warp and the consumers read it from the
# stage). Why: run 9's ncu has our FC1 at deepseek-v3 T = 8192 reading 13.9 GB from DRAM against
# CUTLASS's 10.9 (the weights are 7.5 GB): with the static stride, CTAs whose tiles ran short drift
# ahead, so the passes of one weight block no longer run side by side and re-read it from HBM; under
# the power cap those bytes cost clock. The bf16 large-T kernel's counter logic moved to
# common/tile_tickets.cuh (its tests and sanitizer test run here too). Carry [".carry"]:
# /work/carry-stash/dynamic_v1.txz.
set -u
source scripts/device_env.sh
carried_job_start
R0=$R
F='Fp8Gemm.*:Registered/Conformance.*fp8_fp8_bf16*:Bf16LargeTma*:Registered/Conformance.*bf16_bf16_bf16_split*'
MEGAMOE_FP8_TMA_DYNAMIC=1 timeout 200 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_dynamic.log" 2>&1
echo "tests dynamic=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_dynamic.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 50"
AB_END=${AB_END:-200} knob_ab MEGAMOE_FP8_TMA_DYNAMIC "static=0 dynamic=1" 150 \
  "act=$S --tactic split_tma_act --tokens 2048,8192" \
  "tma=$S --tactic split_tma --tokens 2048,8192" \
  "small=$S --tactic split_tma_small_act --tokens 512,2048"
echo "ab end $(el)s"
mkdir -p "$R0/san_fp8" "$R0/san_bf16"
R=$R0/san_fp8 MEGAMOE_FP8_TMA_DYNAMIC=1 gpu_sanitizers 'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' 120 memcheck racecheck synccheck
R=$R0/san_bf16 gpu_sanitizers 'Bf16LargeTma.SmallProblemForSanitizers' 60 racecheck synccheck
[ "$(left 330)" -gt 30 ] && MEGAMOE_FP8_TMA_DYNAMIC=1 scripts/ncu_kernels.sh "$R/nc_dyn_split_tma_act" fp8_tma_kernel 1 60 \
  "--section SpeedOfLight --section MemoryWorkloadAnalysis" "gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum" -- \
  $B/megamoe run --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --preset deepseek-v3 --recipe fp8_block --tokens 8192 --iters 2 --no-check \
  && grep -E "dram__bytes_read.sum|Duration" "$R/nc_dyn_split_tma_act_details.txt"
echo "end $(el)s"
