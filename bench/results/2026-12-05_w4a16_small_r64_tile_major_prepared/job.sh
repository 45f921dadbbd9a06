#!/usr/bin/env bash
# Prepared in session 43 (no GPU was lent that session; nothing here has run on a GPU). Two
# experiments on the W4A16 small tactic at decode sizes, one binary (branch wip/tile-major, e63a183 =
# 5fca86b + small_r64_tile_major.patch; the shipped kernels' SASS unchanged, scripts/sass_same.py):
#  r64: 64 weight rows a CTA, each stage's K steps split between two K groups of 4 warps, their sums
#       added through shared memory, three CTAs per SM: twice the CTAs and warps of split_small_k1 with
#       K whole (FC1's activation epilogue stays). Tactic `split_small_r64`, W4A16GemmArgs::small_rows,
#       knob MEGAMOE_W4A16_SMALL_R64 (0 never, the default; 1 the rule: where the 128-row grid has
#       <= 1.5 CTAs per SM; 2 always).
#  tm:  the codes of a stage as one bulk copy of a tile-major, pre-swizzled copy of W (the same
#       shared-memory image as the 2-D boxes of 128-byte rows), MEGAMOE_W4A16_TILE_MAJOR=1 (twice the
#       codes' memory; 128-row CTAs only). Asks whether the boxes' rows limit the stream.
# Binary (the CPU machine's /work/carry-stash/small_r64_tm.txz; xz: tar xJf): .carry/r64.txz, megamoe +
# megamoe_gpu_tests of e63a183.
# 1. W4A16 / fp4 GPU tests (64-row and tile-major cases included); again with every small launch on 64
#    rows (knob 2) and with the tile-major copies in the backends; memcheck / racecheck / synccheck;
# 2. `megamoe run` against the CPU reference: knob 2 at T = 1, tile-major at T = 1 / 4 (four presets,
#    both formats);
# 3. A/B k0 (base) / r64 rule / r64 always / tm / tm + r64 rule: `auto` mxfp4 T = 1..8 and nvfp4
#    T = 1, forced split_small_k1 mxfp4 T = 1, 2; four presets; best of two (28 cells a variant).
# Two calls on one warm machine: `bash job.sh check` (1 and 2, ~300 s) then `bash job.sh ab` (3, ~350 s;
# AB_DEADLINE, default 330 s from the call's start, bounds it).
set -u
phase=${1:?check or ab}
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/r64 && tar xJf .carry/r64.txz -C /tmp/r64 || exit 1
B=/tmp/r64
if [ "$phase" = check ]; then
F='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*'
timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
for k in MEGAMOE_W4A16_SMALL_R64=2 MEGAMOE_W4A16_TILE_MAJOR=1; do
  env $k timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_$k.log" 2>&1
  echo "tests $k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_$k.log" | head -8
done
S='SmallTactic*/W4A16ActEpilogue*:W4A16.GemmTacticsMatchCpu'
for t in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$S" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
    for kT in MEGAMOE_W4A16_SMALL_R64=2:1 MEGAMOE_W4A16_TILE_MAJOR=1:1 MEGAMOE_W4A16_TILE_MAJOR=1:4; do
      k=${kT%:*} T=${kT#*:} log="$R/run_${r}_${p}_${k%%=*}_$T.log"
      env $k timeout 60 $B/megamoe run --recipe $r --preset $p --tokens $T --iters 2 > "$log" 2>&1
      echo "run $r $p $k T=$T rc=$? $(grep -iE 'rel-L2' "$log" | tail -1 | cut -c1-100)"
    done
  done
done
echo "runs done $(( $(date +%s) - t0 ))s"
fi
if [ "$phase" = ab ]; then
mkdir -p "$R/ab"
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
AB_VARIANTS="k0=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=0 r64=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=1 \
r64all=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=2 tm=$B/megamoe@MEGAMOE_W4A16_TILE_MAJOR=1 \
tmr64=$B/megamoe@MEGAMOE_W4A16_TILE_MAJOR=1@MEGAMOE_W4A16_SMALL_R64=1" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_DEADLINE:-330}" \
  "automx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8 --iters 50" \
  "k1mx=--recipe w4a16_mxfp4 --tactic split_small_k1 --presets $P --tokens 1,2 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets $P --tokens 1 --iters 50" \
  2>&1 | grep -E "^==|geomean|ALL|deadline|r[0-9] "
fi
echo "end $(( $(date +%s) - t0 ))s"
