#!/usr/bin/env bash
# Prepared in session 39 (no device time left), not yet run. fp8_block's small-T kernel (`split_tma_small`,
# `split_tma_small_act`: the Narrow geometry of grouped_gemm_fp8_tma.cuh) copies one 128-K e4m3 block of
# the weights per step (128 bytes of each row, as two 64-row boxes); qwen3-30b-a3b T = 128 streamed
# FC1 at 3.67 TB/s against vLLM's 3.87. In session 39 bf16 and W4A16 gained 2-4% / 1.5% from copies that
# bring 256 contiguous bytes of each row. fp8_tma_pair_weights.patch (on 9589fc5): the Narrow geometry
# keeps its stages' token tiles and weight tiles in two arrays, so the weight tiles of stages s and
# s + 1 (s even) are adjacent; with MEGAMOE_FP8_TMA_PAIR_W=1 (and K % 128 == 0) the TMA warp fills both
# with one copy through a 3-D map {128, rows, K/128} (box {128, 128, 2}) or, for gated FC1, a 4-D map
# {128, rows, 2 boxes I rows apart, K/128} (box {128, 64, 2, 2}); the bytes count on stage s's full
# barrier, which stage s + 1's consumers pass first; the producer waits for both slots' empty barriers.
# Gated sub-tiles whose second box would leave the expert keep two boxes a step (TMA checks each
# coordinate alone). Knob 0: the new layout with one copy a step. Wide geometry: layout unchanged, its
# code differs by the extra map parameter (not compared at the SASS level). Compiles (128 registers, no
# spills); nothing ran on a GPU.
# Binaries built on the CPU machine: .carry/fp.tgz (megamoe + megamoe_gpu_tests of 9589fc5 + the patch),
# .carry/ship.tgz (megamoe of 51a19be: the same fp8 code as 9589fc5). Carry [".carry"] (those two only).
# 1. fp8 tests (Fp8Gemm.*: kTmaSmall's D equals kTma's bit for bit, run_act narrow equals the separate
#    kernels bit for bit; K = 256 / 384 take pairs, 208 / 2880 do not): with knob 1 also the fp8 backend
#    and conformance tests; racecheck / synccheck (BothTactics) and memcheck (+ FusedActivation), knob 1;
# 2. timelines: fp8_block qwen3-30b-a3b / mixtral-8x7b T = 128, forced split_tma_small_act, base / k0 / k1;
# 3. A/B base / k0 / k1: forced split_tma_small_act T = 8..1024, forced split_tma T = 128..2048 (the Wide
#    kernel's extra parameter), `auto` T = 1..1024; four presets.
# Ship (the knob's form as the default, re-tune fp8_block) only beyond the spread.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/fp
mkdir -p $B /tmp/ship && tar xzf .carry/fp.tgz -C $B && tar xzf .carry/ship.tgz -C /tmp/ship || exit 1
# knob 1: the fp8 GEMM, backend and conformance tests; knob 0 (the new layout, one copy a step): the GEMM tests.
for k in 1 0; do
  f='Fp8Gemm*:Fp8Block*:*fp8_fp8*'; [ $k = 0 ] && f='Fp8Gemm*'
  MEGAMOE_FP8_TMA_PAIR_W=$k timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$f" > "$R/tests_k$k.log" 2>&1
  echo "fp8 tests knob $k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_k$k.log" | head -8
done
for t in racecheck synccheck memcheck; do
  f=Fp8Gemm.BothTacticsMatchFloat64Product
  [ $t = memcheck ] && f=$f:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall
  MEGAMOE_FP8_TMA_PAIR_W=1 timeout 120 compute-sanitizer --tool $t $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$f" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|^\[  PASSED|FAILED" "$R/san_$t.log" | head -3
done
for p in qwen3-30b-a3b mixtral-8x7b; do
  for v in base k0 k1; do
    bin=$B/megamoe; k=${v#k}; [ "$v" = base ] && { bin=/tmp/ship/megamoe; k=0; }
    scripts/ktrace/trace.sh $R/tl_${p}_$v MEGAMOE_FP8_TMA_PAIR_W=$k -- $bin bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split \
      --tactic split_tma_small_act --presets $p --tokens 128 --iters 50 > /tmp/tl.txt
    echo "timeline $p $v rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^ +[0-9] |span" /tmp/tl.txt
  done
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=$B/megamoe@MEGAMOE_FP8_TMA_PAIR_W
AB_VARIANTS="base=/tmp/ship/megamoe k0=$M=0 k1=$M=1" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 560 \
  "small=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_small_act --presets $PR --tokens 8,32,128,256,512,1024 --iters 50" \
  "wide=--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $PR --tokens 128,512,2048 --iters 50" \
  "auto=--recipe fp8_block --presets $PR --tokens 1,4,16,64,128,256,512,1024 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
