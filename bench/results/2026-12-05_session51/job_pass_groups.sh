#!/usr/bin/env bash
# Prepared in session 51 (not run yet): the bf16 large TMA GEMM's pass groups
# (Bf16LargeTmaArgs::pass_group, MEGAMOE_BF16_LARGE_TMA_PASS_GROUP; off by default). Why: on the H100,
# mixtral-8x7b T = 32768 ran `split_large_tma_fc1` at 50.5 ms against CUTLASS's large tile at 45.4 ms
# although our kernel won at T = 16384 (19.4 against 21.2): 26 passes of 320 tokens an expert, 64 MB
# of tokens re-read for every weight block. Carry [".carry"] (.carry/bld.txz = megamoe +
# megamoe_gpu_tests of the commit that added the pass groups or later); ~400-560 s:
#   1. Bf16LargeTma.* and GemmBf16Act.* (the pass-group cases), racecheck / memcheck on
#      Bf16LargeTma.SmallProblemForSanitizers (pass groups of 1 in its dynamic-order runs);
#   2. A/B off (0) / auto (1: 7 passes a group on 132 SMs), forced tactics, two rounds:
#      split_large_tma_fc1 and split_large_tma at T = 8192, 16384, 32768 on the four presets
#      (only experts of more than 7 passes -- mixtral-8x7b from T = 16384, 4096 rows an expert --
#      change order; the rest are the control).
set -u
source scripts/device_env.sh
carried_job_start
AB_END=${AB_END:-520}
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Bf16LargeTma.*:GemmBf16Act.*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -6
gpu_sanitizers Bf16LargeTma.SmallProblemForSanitizers 60 racecheck memcheck
P=mixtral-8x7b,deepseek-v3,gpt-oss-120b,qwen3-30b-a3b
G=$B/megamoe@MEGAMOE_BF16_LARGE_TMA_PASS_GROUP
mkdir -p "$R/ab"
AB_VARIANTS="off=$G=0 auto=$G=1" RUN_TIMEOUT=150 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "$AB_END" \
  "fc1=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma_fc1 --presets $P --tokens 8192,16384,32768 --iters 50" \
  "both=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets mixtral-8x7b --tokens 16384,32768 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
