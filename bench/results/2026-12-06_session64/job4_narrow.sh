#!/usr/bin/env bash
# Session 64. Carry [".carry"]: bld.txz = main b62cd0c; narrow.txz = b62cd0c + narrow.patch (an experiment,
# not a form to ship: our bf16 large TMA GEMM with passes of at most 128 token rows, so a stage is 16 KB of
# weights + 16 KB of tokens and the ring holds 7 stages instead of 4 of 56 KB: twice the weight bytes in
# flight where experts hold <= 128 rows; pass mode 2 only -- modes 0 / 1 would overrun the token part).
# Question: is split_large_tma's weight stream at 32..128 rows an expert (qwen3-30b-a3b T = 512 / 1024:
# 2.4-2.7 TB/s against the small kernel's 2.9 at T = 128) short of bytes in flight?
# 1. the backend test of the tactic on the narrow binary; 2. forced split_large_tma, main vs narrow,
# bf16, at 32 / 64 / 128 rows an expert on the four presets; 3. the same with split_large_tma_fc1.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
mkdir -p /tmp/nar && tar xJf .carry/narrow.txz -C /tmp/nar
timeout 120 /tmp/nar/megamoe_gpu_tests --gtest_filter='SplitBf16.LargeTmaTacticMatchesReference' > "$R/test_narrow.log" 2>&1
echo "narrow test rc=$? $(el)s"; grep -E "PASSED|FAILED|OK \]" "$R/test_narrow.log" | tail -4
mkdir -p "$R/ab"
AB_VARIANTS="main=$B/megamoe nar=/tmp/nar/megamoe" RUN_TIMEOUT=90 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 400 \
  "q=--recipe bf16 --presets qwen3-30b-a3b --tokens 512,1024,2048 --iters 50 --tactic split_large_tma" \
  "d=--recipe bf16 --presets deepseek-v3 --tokens 1024,2048,4096 --iters 50 --tactic split_large_tma" \
  "g=--recipe bf16 --presets gpt-oss-120b --tokens 1024,2048,4096 --iters 50 --tactic split_large_tma" \
  "m=--recipe bf16 --presets mixtral-8x7b --tokens 128,256,512 --iters 50 --tactic split_large_tma" \
  > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
