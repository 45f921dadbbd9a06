#!/usr/bin/env bash
# Session 49: the fp8_block TMA kernel's staged bf16 D (rewritten this session; session 48's branch
# was lost): FC2's bf16 y of split_tma / split_tma_act / split_tma_small goes through the warp's own
# 16 token rows of the tile's last stage (held until the stores are done) and is stored 16 bytes a
# lane, a quarter-warp one row's 128 bytes, instead of 4 bytes (two columns) a lane.
# MEGAMOE_FP8_TMA_STAGED=0: the direct stores. The 2026-12-03 diagnosis: split_tma 1.090x and
# split_tma_act 1.051x faster without any D stores.
# Same carry as job.sh ([".carry", ".peers"], .carry/bld.txz = the branch's binary); ~300-330 s:
#  tests:  the fp8 GPU tests (staged), the fp8 GEMM tests again with direct stores;
#  san:    memcheck / racecheck / synccheck on the small fp8 GEMM tests and the many-tiles case;
#  ab:     direct / staged: forced split_tma_act (T = 128, 2048, 8192), and `auto` (T = 2048, 8192),
#          four presets, best of two alternated rounds.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
mkdir -p /tmp/bld && tar xJf .carry/bld.txz -C /tmp/bld || exit 1
B=/tmp/bld
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8*:*fp8*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
MEGAMOE_FP8_TMA_STAGED=0 timeout 80 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*' \
  > "$R/tests_direct.log" 2>&1
echo "tests direct rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_direct.log" | head -4
for t in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.PitchedRowsSmall:Fp8Gemm.ManyTilesPerCta' \
    > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
mkdir -p "$R/ab"
S=$B/megamoe@MEGAMOE_FP8_TMA_STAGED
F="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 30"
AB_VARIANTS="direct=$S=0 staged=$S=1" RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 290 \
  "split_tma_act=$F --tokens 128,2048,8192 --tactic split_tma_act" \
  "auto=--recipe fp8_block --presets $P --tokens 2048,8192 --iters 30" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
