#!/usr/bin/env bash
# Session 48: the fp8_block TMA kernel's staged epilogues (branch wip/fp8-tma-staged, in the binary
# .carry/bld.txz of next_56b1efb, which also holds the other changes): FC2's bf16 y (split_tma*) and
# FC1's e4m3 codes (split_tma*_act) go through the warp's own 16 token rows of the tile's last stage
# and are stored 16 bytes a lane instead of 4 / 2. MEGAMOE_FP8_TMA_STAGED is a bit mask: 1 = bf16 D,
# 2 = the codes, 3 = both (the default), 0 = both direct. The 2026-12-03 diagnosis: split_tma 1.090x
# and split_tma_act 1.051x faster without any D stores; a staged form that cost ring stages gained
# 1.04-1.11x at T = 8192 but lost the small-T cells.
# A call with the same carry as job.sh [".carry", ".peers"]; ~400-500 s:
#  tests:  the fp8 GPU tests (staged, the default), the fp8 GEMM tests again with direct stores
#          (MEGAMOE_FP8_TMA_STAGED=0), the fp8 backends' conformance cases;
#  san:    memcheck / racecheck / synccheck on the small fp8 GEMM tests (both staged forms);
#  ab:     direct (0) / D only (1) / both (3): forced split_tma_act (T = 128, 2048, 8192) and
#          split_tma_act_large_fc2 (our FC1, CUTLASS's FC2: the codes alone), and `auto` (T = 2048,
#          8192), four presets.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
mkdir -p /tmp/bld && tar xJf .carry/bld.txz -C /tmp/bld || exit 1
B=/tmp/bld
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
timeout 200 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8*:*fp8*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
MEGAMOE_FP8_TMA_STAGED=0 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.*' \
  > "$R/tests_direct.log" 2>&1
echo "tests direct rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_direct.log" | head -4
for t in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.PitchedRowsSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' \
    > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
mkdir -p "$R/ab"
S=$B/megamoe@MEGAMOE_FP8_TMA_STAGED
F="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --iters 30"
AB_VARIANTS="direct=$S=0 d_only=$S=1 both=$S=3" RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 460 \
  "split_tma_act=$F --tokens 128,2048,8192 --tactic split_tma_act" \
  "act_large_fc2=$F --tokens 2048,8192 --tactic split_tma_act_large_fc2" \
  "auto=--recipe fp8_block --presets $P --tokens 2048,8192 --iters 30" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab.txt"
echo "== d_only both (the codes alone)"; python3 scripts/ab_compare.py "$R/ab" d_only both > "$R/ab_d_only_both.txt" 2>&1
grep -E "geomean|ALL" "$R/ab_d_only_both.txt"
echo "end $(el)s"
