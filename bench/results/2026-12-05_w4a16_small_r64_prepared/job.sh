#!/usr/bin/env bash
# Prepared in session 43 (no GPU was lent that session): the W4A16 small tactic with 64 weight rows a
# CTA (branch wip/small-r64; small_r64.patch on 5fca86b). Each stage's K steps split between two K
# groups of 4 warps inside the CTA, their sums added through shared memory, three CTAs per SM: twice
# the CTAs and warps of split_small_k1 with K still whole (FC1's activation epilogue applies). Aimed at
# grids of fewer CTAs than SMs (gpt-oss-120b T = 1: FC1 180, FC2 92 CTAs of 128 rows; qwen3-30b-a3b
# T = 1: 96 / 128), where ncu measured 0.41-0.48 issued instructions per scheduler and 1.4-1.8 TB/s.
# New: tactic `split_small_r64`, W4A16GemmArgs::small_rows, knob MEGAMOE_W4A16_SMALL_R64 (0 never,
# the committed default; 1 the rule: 64 rows when the 128-row grid has <= 1.5 CTAs per SM; 2 always).
# The 128-row kernels' SASS equals 5fca86b's (scripts/sass_same.py --rename 'ELi128EEEv14CUtensorMap'
# 'EEEv14CUtensorMap'), so knob 0 is the base.
# Binary (the CPU machine's /work/carry-stash/small_r64.txz; xz: tar xJf):
#   .carry/r64.txz   megamoe + megamoe_gpu_tests of wip/small-r64
# 1. W4A16 / fp4 GPU tests (new: GemmTacticsMatchCpu's 64-row runs, SmallTactic64Rows/W4A16ActEpilogue,
#    the every_tactic conformance cases with split_small_r64); the same with knob 2 (every small-tactic
#    launch on 64 rows, backends and conformance included); memcheck, racecheck, synccheck;
# 2. `megamoe run` against the CPU reference with knob 2, T = 1 / 4, four presets, both formats;
# 3. A/B knob 0 / 1 / 2, `auto` mxfp4 T = 1..16 and nvfp4 T = 1, 4 (four presets), forced
#    split_small_k1 mxfp4 T = 1, 2, 4 (knob 0 = k1, knob 2 = r64), best of two (~200 s).
# ~330 s of device time with the machine start.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/r64 && tar xJf .carry/r64.txz -C /tmp/r64 || exit 1
B=/tmp/r64
F='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*'
timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
MEGAMOE_W4A16_SMALL_R64=2 timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_knob2.log" 2>&1
echo "tests knob 2 rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_knob2.log" | head -8
S='SmallTactic64Rows/W4A16ActEpilogue*:W4A16.GemmTacticsMatchCpu'
for t in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$S" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
    for T in 1 4; do
      MEGAMOE_W4A16_SMALL_R64=2 timeout 60 $B/megamoe run --recipe $r --preset $p --tokens $T --iters 2 \
        > "$R/run_${r}_${p}_$T.log" 2>&1
      echo "run $r $p T=$T rc=$? $(grep -iE 'rel-L2' "$R/run_${r}_${p}_$T.log" | tail -1 | cut -c1-100)"
    done
  done
done
echo "runs done $(( $(date +%s) - t0 ))s"
mkdir -p "$R/ab"
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
AB_VARIANTS="k0=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=0 k1=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=1 k2=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=2" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_DEADLINE:-470}" \
  "automx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets $P --tokens 1,4 --iters 50" \
  "k1mx=--recipe w4a16_mxfp4 --tactic split_small_k1 --presets $P --tokens 1,2,4 --iters 50" \
  2>&1 | grep -E "^==|geomean|ALL|deadline|r[0-9] "
echo "end $(( $(date +%s) - t0 ))s"
