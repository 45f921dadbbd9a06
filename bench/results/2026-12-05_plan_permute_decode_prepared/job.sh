#!/usr/bin/env bash
# Prepared in session 42 (not run: no device time left). At decode the split pipelines launch the
# route plan (one block, 3.2-3.6 us at T = 1) and then the permute kernel (1.5 us more on the
# timeline: session 41's bench/results/2026-12-04_w4a16_decode_timelines/). The plan's single-block
# kernel can gather x itself (routing::PlanPermute; MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES, default 0). For
# bf16 it was measured at T = 8..128 only (0.61-0.99x: one block gathering up to 1024 rows); since
# 0907fff the W4A16 split backend takes the knob too. This measures it where a layer is tens of us:
#   budgets 0 (the permute kernel), 256 KiB (deepseek-v3 T <= 2, gpt-oss-120b T <= 11, mixtral-8x7b
#   T <= 16, qwen3-30b-a3b T <= 8) and 1 MiB, `auto` bf16 and w4a16_mxfp4 (+ nvfp4 at T = 1, 4),
#   T = 1..16, four presets, alternated, best of two.
# First correctness with the knob at 1 MiB: the W4A16 and bf16 split backend GPU tests, conformance,
# and `megamoe run` against the CPU reference at T = 1 / 4 (four presets, w4a16_mxfp4 and bf16).
# .carry/pp.txz: megamoe + megamoe_gpu_tests of 0907fff (the CPU machine's
# /work/carry-stash/plan_permute_0907fff.txz; or build the committed tree). ~250 s of device time.
# Ship (a default budget per backend) only beyond the spread, with the tests green.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
# Either binary: pp.txz (0907fff) or the decode experiments' dx.txz (b2d19f8, which has the knob too; its
# experiments' knobs stay off here), so that one carry serves this job and the r64 / tile-major ones.
mkdir -p /tmp/pp
if [ -f .carry/pp.txz ]; then tar xJf .carry/pp.txz -C /tmp/pp || exit 1
else tar xJf .carry/dx.txz -C /tmp/pp || exit 1; fi
MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES=1048576 timeout 150 /tmp/pp/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='W4A16.*:SplitBf16.*:RoutePlan.*:Registered/Conformance.Run/sm90_bf16_*_split*' > "$R/tests.log" 2>&1
echo "tests (plan gathers x) rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
for r in w4a16_mxfp4 bf16; do
  for p in gpt-oss-120b deepseek-v3 mixtral-8x7b qwen3-30b-a3b; do
    for T in 1 4; do
      MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES=1048576 timeout 60 /tmp/pp/megamoe run --recipe $r --preset $p --tokens $T --iters 2 \
        > "$R/run_${r}_${p}_$T.log" 2>&1
      echo "run $r $p T=$T rc=$? $(grep -iE 'rel-L2' "$R/run_${r}_${p}_$T.log" | tail -1 | cut -c1-100)"
    done
  done
done
mkdir -p "$R/ab"
AB_VARIANTS="b0=/tmp/pp/megamoe@MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES=0 b256k=/tmp/pp/megamoe@MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES=262144 b1m=/tmp/pp/megamoe@MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES=1048576" \
scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 420 \
  "bf16=--recipe bf16 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-16 --iters 50" \
  "mx=--recipe w4a16_mxfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1-16 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b --tokens 1,4 --iters 50" \
  2>&1 | grep -E "^==|geomean|ALL|deadline"
echo "end $(( $(date +%s) - t0 ))s"
