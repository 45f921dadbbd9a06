#!/usr/bin/env bash
# Prepared in session 43 (no GPU was lent that session; nothing here has run on a GPU). Three
# experiments on the W4A16 split path at decode sizes, one binary (branch wip/fc2-combine, b2d19f8 =
# 5fca86b + decode_experiments.patch, after session 44's review; the shipped kernels' SASS unchanged,
# scripts/sass_same.py), each
# behind a knob that is off by default:
#  r64: 64 weight rows a CTA, each stage's K steps split between two K groups of 4 warps, their sums
#       added through shared memory, three CTAs per SM: twice the CTAs and warps of split_small_k1 with
#       K whole (FC1's activation epilogue stays). Tactic `split_small_r64`, W4A16GemmArgs::small_rows,
#       MEGAMOE_W4A16_SMALL_R64 (1 the rule: where the 128-row grid has <= 1.5 CTAs per SM; 2 always;
#       3 the rule plus FC2 in two K parts where its 64-row CTAs still fit one wave: gpt-oss-120b T = 1).
#  tm:  the codes of a stage as one bulk copy of a tile-major, pre-swizzled copy of W (the same
#       shared-memory image as the 2-D boxes of 128-byte rows), MEGAMOE_W4A16_TILE_MAJOR=1 (twice the
#       codes' memory; 128-row CTAs only). Asks whether the boxes' rows limit the stream.
#  cb:  FC2's small kernel runs the combine: the last CTA of each column block of y (its 128 or 64 rows)
#       combines it (launch_combine's arithmetic, bit for bit), no combine kernel after FC2 (T <= 32,
#       16-token passes), MEGAMOE_W4A16_FC2_COMBINE=1.
# Binary: the CPU machine's /work/carry-stash/decode_experiments.txz -> .carry/dx.txz (xz: tar xJf;
# megamoe + megamoe_gpu_tests of b2d19f8; 53299f7's as decode_experiments_53299f7.txz).
# Two calls on one warm machine: `bash job.sh check` (~400 s) then `bash job.sh ab` (~520 s; AB_DEADLINE,
# default 470 s from the call's start, bounds it: 7 variants x 20 cells, two rounds if time allows).
# check: W4A16 / fp4 GPU tests (the new r64, tile-major and fused-combine cases included) with the knobs
#   off, then with each knob on (every small launch on 64 rows; the rule + FC2 split; tile-major copies
#   in the backends; the fused combine in the backends); memcheck / racecheck / synccheck on the new
#   cases; `megamoe run` against the CPU reference with each knob (four presets; mxfp4: T = 1, tm and cb
#   also T = 4; nvfp4: knobs 3, tm, cb at T = 1).
# ab: k0 (base) / r64 rule / r64 rule + FC2 split / r64 always / tm / cb / r64 rule + FC2 split + cb,
#   `auto` mxfp4 T = 1..8 and nvfp4
#   T = 1 (the table: split_small_k1 at T = 1..4 but for mixtral-8x7b, split_small, i.e. K in two
#   halves, at its T = 1 / 2); four presets; best of two (20 cells a variant).
# tune (optional, ~450 s): `megamoe tune` T = 1..64 with split_small_r64 among the tactics.
set -u
phase=${1:?check, ab or tune}
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/dx && tar xJf .carry/dx.txz -C /tmp/dx || exit 1
B=/tmp/dx
KNOBS="MEGAMOE_W4A16_SMALL_R64=2 MEGAMOE_W4A16_SMALL_R64=3 MEGAMOE_W4A16_TILE_MAJOR=1 MEGAMOE_W4A16_FC2_COMBINE=1"
if [ "$phase" = check ]; then
  F='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*'
  timeout 90 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
  echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
  for k in $KNOBS; do
    env $k timeout 90 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_${k/=/_}.log" 2>&1
    echo "tests $k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_${k/=/_}.log" | head -8
  done
  S='SmallTactic*/W4A16ActEpilogue*:W4A16.GemmTacticsMatchCpu:W4A16.FusedCombine*:W4A16.SmallTacticEightStep*'
  for t in memcheck racecheck synccheck; do
    timeout 80 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
      --gtest_filter="$S" > "$R/san_$t.log" 2>&1
    echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
  done
  for r in w4a16_mxfp4 w4a16_nvfp4; do
    for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
      KT="MEGAMOE_W4A16_SMALL_R64=3:1 MEGAMOE_W4A16_TILE_MAJOR=1:1 MEGAMOE_W4A16_FC2_COMBINE=1:1"
      [ $r = w4a16_mxfp4 ] && KT="$KT MEGAMOE_W4A16_SMALL_R64=2:1 MEGAMOE_W4A16_TILE_MAJOR=1:4 MEGAMOE_W4A16_FC2_COMBINE=1:4"
      for kT in $KT; do
        [ $(( $(date +%s) - t0 )) -gt 540 ] && { echo "skip run $r $p $kT (time)"; continue; }
        k=${kT%:*} T=${kT#*:} log="$R/run_${r}_${p}_${k/=/_}_$T.log"
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
r64s=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=3 r64all=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=2 \
tm=$B/megamoe@MEGAMOE_W4A16_TILE_MAJOR=1 cb=$B/megamoe@MEGAMOE_W4A16_FC2_COMBINE=1 \
r64scb=$B/megamoe@MEGAMOE_W4A16_SMALL_R64=3@MEGAMOE_W4A16_FC2_COMBINE=1" \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_DEADLINE:-470}" \
    "automx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8 --iters 50" \
    "autonv=--recipe w4a16_nvfp4 --presets $P --tokens 1 --iters 50" \
    2>&1 | grep -E "^==|geomean|ALL|deadline|r[0-9] "
fi
if [ "$phase" = tune ]; then
  # Optional third call, once r64 passed its checks: the tactic table's view of it (split_small_r64 is
  # one of the W4A16 split tactics in this binary), T = 1..64, both formats; then
  # scripts/merge_tune.py tune_*.json --buckets 1-64 --min-gain 0.02 --dry-run on the CPU machine.
  for r in w4a16_mxfp4 w4a16_nvfp4; do
    for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
      [ $(( $(date +%s) - t0 )) -gt 520 ] && { echo "skip tune $r $p (time)"; continue; }
      MEGAMOE_TACTIC_CACHE=off timeout 70 $B/megamoe tune --recipe $r --presets $p --tokens 1-64 --iters 20 --rounds 2 \
        --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2> "$R/tune_${r}_$p.err"
      echo "tune $r $p rc=$? $(( $(date +%s) - t0 ))s"
    done
  done
fi
echo "end $(( $(date +%s) - t0 ))s"
