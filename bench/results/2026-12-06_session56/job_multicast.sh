#!/usr/bin/env bash
# Session 56, prepared: our bf16 large-T GEMM in clusters of two CTAs (MEGAMOE_BF16_LARGE_TMA_CLUSTER=2,
# branch wip/bf16-large-multicast; default 1 = main's kernel): the two CTAs run the two 128-row halves
# of a 256-row weight block on the same pass and each loads half of the pass's token boxes for both
# (TMA multicast), so the token rows cross from L2 to the SMs once per pair. Why: ncu at T = 8192
# (run3_ncu_w4, H100) has the kernel's L2 at 76-81% and its consumers waiting on late stages; an L2
# prefetch of the weights made it slower (run4). Check: the kernel's tests and the bf16 split backend's
# conformance cases with the knob, memcheck / racecheck / synccheck on the small test; then the A/B,
# forced `split_large_tma`, T = 4096 / 8192, until AB_END (default 540 s; the sanitizers take up to 60 s each). Carry [".carry"].
set -u
source scripts/device_env.sh
carried_job_start
F='Bf16LargeTma.*:Registered/Conformance.*bf16_bf16_bf16_split*'
MEGAMOE_BF16_LARGE_TMA_CLUSTER=2 timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_cluster.log" 2>&1
echo "tests cluster=2 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_cluster.log" | head -8
MEGAMOE_BF16_LARGE_TMA_CLUSTER=2 gpu_sanitizers 'Bf16LargeTma.SmallProblemForSanitizers' 60 memcheck racecheck synccheck
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_END=${AB_END:-540} knob_ab MEGAMOE_BF16_LARGE_TMA_CLUSTER "one=1 pair=2" 150 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 4096,8192 --iters 50"
echo "end $(el)s"
