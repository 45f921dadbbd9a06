#!/usr/bin/env bash
# Session 49: our bf16 large-T GEMM (split_large_tma*) with the staged epilogue (rewritten this
# session: session 48's branch was lost with its machine) and the early ticket draw (a knob, off by
# default), one binary. "main" is the same binary with MEGAMOE_BF16_LARGE_TMA_STORES=1 (main's
# paired stores and ticket draw: the carry holds one binary, the tracked tree leaves ~15 MB).
#   staged: bf16 outputs of passes >= 128 tokens through the warp's own 16 A rows of the pass's held
#           last stage (stmatrix .trans), stored 16 bytes a lane (MEGAMOE_BF16_LARGE_TMA_STORES=2,
#           the branch's default);
#   early:  staged + MEGAMOE_BF16_LARGE_TMA_EARLY_DRAW=1 (the TMA lane draws the next tile's ticket
#           right after issuing a tile's last step).
# Binary: .carry/bld.txz = megamoe + megamoe_gpu_tests of the branch. One call, carry
# [".carry", ".peers"]; ~450-480 s:
#  tests:  the whole GPU suite (the large GEMM's: three store modes, static / dynamic / early-draw
#          orders; the act-epilogue tests: staged stores for every activation; the tactic cache's
#          buckets past 8192, never run on a GPU before);
#  san:    memcheck / racecheck / synccheck on the small staged cases;
#  run:    `megamoe run --tactic split_large_tma` against the CPU reference, four presets;
#  ab:     tile (CUTLASS 128x256) / main / staged / early, forced, uniform T = 1024..8192 (and
#          12288 / 16384 for two presets), best of two alternated rounds.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
mkdir -p /tmp/bld && tar xJf .carry/bld.txz -C /tmp/bld || exit 1
B=/tmp/bld
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
SPLIT=sm90_bf16_bf16_bf16_split
timeout 200 $B/megamoe_gpu_tests --gtest_brief=1 > "$R/tests.log" 2>&1  # the whole GPU suite
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests ran" "$R/tests.log" | head -12
S='Bf16LargeTma.SmallProblemForSanitizers:GemmBf16Act.LargeTmaStagedForSanitizers'
for t in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$S" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for pt in qwen3-30b-a3b:2048 mixtral-8x7b:1024 gpt-oss-120b:1024 deepseek-v3:512; do
  timeout 60 $B/megamoe run --backend $SPLIT --tactic split_large_tma --preset ${pt%%:*} --tokens ${pt#*:} \
    > "$R/run_${pt%%:*}.txt" 2>&1
  echo "run $pt rc=$? $(grep -o 'rel-L2 vs cpu_reference: .*' "$R/run_${pt%%:*}.txt")"
done
wrap() { mkdir -p /tmp/w; printf '#!/bin/sh\nexec %s "$@" --tactic %s\n' "$3" "$2" > "/tmp/w/$1"; chmod +x "/tmp/w/$1"; }
mkdir -p "$R/ab"; wrap tile split_large_tile $B/megamoe; wrap new split_large_tma $B/megamoe
AB_VARIANTS="tile=/tmp/w/tile main=/tmp/w/new@MEGAMOE_BF16_LARGE_TMA_STORES=1 staged=/tmp/w/new early=/tmp/w/new@MEGAMOE_BF16_LARGE_TMA_EARLY_DRAW=1" \
  RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 430 \
  "uniform=--recipe bf16 --backend $SPLIT --presets $P --tokens 1024,2048,4096,8192 --iters 50" \
  "beyond=--recipe bf16 --backend $SPLIT --presets gpt-oss-120b,deepseek-v3 --tokens 12288,16384 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab.txt"
for pair in "main staged" "staged early" "main early"; do
  echo "== $pair"; python3 scripts/ab_compare.py "$R/ab" $pair > "$R/ab_${pair// /_}.txt" 2>&1
  grep -E "geomean|ALL" "$R/ab_${pair// /_}.txt"
done
echo "end $(el)s"
