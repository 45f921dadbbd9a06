#!/usr/bin/env bash
# Prepared in session 53 (not run yet): FC1 on our bf16 large-T GEMM gathering x's rows itself
# (Bf16LargeTmaArgs::gather_row_to_route, MEGAMOE_BF16_LARGE_TMA_GATHER=1; off by default; branch
# wip/bf16-large-gather). Why: the permute kernel is 3-8% of the bf16 layer where our kernel runs FC1
# (session 53, H100: qwen3-30b-a3b T = 16384 228 of 2888 us, deepseek-v3 T = 8192 402 of 11974 us,
# gpt-oss-120b T = 8192 95 of 3454 us), and FC1 then reads x (K times smaller than x_perm) through L2.
# Carry [".carry"] with .carry/bld.txz packed from the branch (scripts/pack_carry.sh); ~450-560 s:
#   1. Bf16LargeTma.*, GemmBf16Act.*, SplitBf16.LargeTmaTacticMatchesReference (gather cases: every
#      shape against the float64 loop, rows outside the experts mapped to INT32_MAX so a read of one
#      faults; the layer bit for bit equal to the permuted path, eagerly and from a graph);
#      memcheck / racecheck / synccheck on Bf16LargeTma.SmallProblemForSanitizers (gather cases in it);
#      the A/B below runs until AB_END (default 540 s; a second call with the tests skipped can follow);
#   2. A/B off / on, forced tactics, two rounds: split_large_tma_fc1 and split_large_tma at T = 2048,
#      8192, 16384 on the four presets (the permute kernel's share decides; mixtral-8x7b is the
#      control, ~1%).
# Session 54: the binary of wip/bf16-large-gather-chunked holds this knob and the chunked epilogues
# (../2026-12-05_bf16_large_chunked_epilogue_prepared/); that job's `check` phase runs these tests and
# sanitizers too, so after it call this job as `job.sh ab` (PHASE=ab for dry runs): the A/B alone.
set -u
source scripts/device_env.sh
carried_job_start
phase=${1:-${PHASE:-all}}
if [ "$phase" != ab ]; then
  timeout 240 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Bf16LargeTma.*:GemmBf16Act.*:SplitBf16.LargeTmaTacticMatchesReference' > "$R/tests.log" 2>&1
  echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
  gpu_sanitizers Bf16LargeTma.SmallProblemForSanitizers 90 memcheck racecheck synccheck
fi
P=qwen3-30b-a3b,deepseek-v3,gpt-oss-120b,mixtral-8x7b
knob_ab MEGAMOE_BF16_LARGE_TMA_GATHER "off=0 on=1" 150 \
  "fc1=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma_fc1 --presets $P --tokens 2048,8192,16384 --iters 50" \
  "both=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192,16384 --iters 50"
echo "end $(el)s"
