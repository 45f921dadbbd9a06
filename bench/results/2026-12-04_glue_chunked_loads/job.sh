#!/usr/bin/env bash
# Session 40: the large-T glue (bench/results/2026-12-04_large_T_timelines/: at qwen3-30b-a3b T = 8192
# bf16 the permute kernel takes 102 us, 268 MB written at 2.6 TB/s, and combine ~80 us of a 1365 us
# layer). Two knobs in one build (.carry/pc.tgz: megamoe + megamoe_gpu_tests of e7cc498 + this session's
# permute.cu / combine.cu change): MEGAMOE_PERMUTE_CHUNKED=1 loads a token's K (up to 8) row indices
# before its stores (the shipped loop stores after each index load); MEGAMOE_COMBINE_CHUNK=8 issues the
# y loads of 8 routes together (shipped: 4). Carry [".carry"].
# 3. the GPU tests that run the permute / combine kernels (the whole GPU suite) with both on, in the time left.
# 1. timelines bf16 qwen3-30b-a3b / deepseek-v3 T = 8192: off / permute / both;
# 2. A/B off / permute / both: bf16 `auto` T = 512..8192, w4a16_mxfp4 and fp8_block T = 8192;
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/pc
mkdir -p $B && tar xzf .carry/pc.tgz -C $B || exit 1
for p in qwen3-30b-a3b deepseek-v3; do
  for v in off p pc; do
    e1=0; e2=4; [ $v != off ] && e1=1; [ $v = pc ] && e2=8
    scripts/ktrace/trace.sh $R/tl_${p}_$v MEGAMOE_PERMUTE_CHUNKED=$e1 MEGAMOE_COMBINE_CHUNK=$e2 -- $B/megamoe bench \
      --recipe bf16 --presets $p --tokens 8192 --iters 50 > /tmp/tl.txt
    echo "timeline $p $v rc=$? $(( $(date +%s) - t0 ))s"; grep -E "permute|combine|span" /tmp/tl.txt
  done
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=$B/megamoe@MEGAMOE_PERMUTE_CHUNKED
AB_VARIANTS="off=$M=0@MEGAMOE_COMBINE_CHUNK=4 p=$M=1@MEGAMOE_COMBINE_CHUNK=4 pc=$M=1@MEGAMOE_COMBINE_CHUNK=8" \
  RUN_TIMEOUT=90 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 380 \
  "bf16=--recipe bf16 --presets $PR --tokens 512,2048,8192 --iters 50" \
  "mxfp4=--recipe w4a16_mxfp4 --presets $PR --tokens 8192 --iters 50" \
  "fp8=--recipe fp8_block --presets $PR --tokens 8192 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline|r[12] " "$R/ab/ab_compare.txt"
MEGAMOE_PERMUTE_CHUNKED=1 MEGAMOE_COMBINE_CHUNK=8 timeout $(( 560 - ($(date +%s) - t0) )) $B/megamoe_gpu_tests --gtest_brief=1 > "$R/tests_on.log" 2>&1
echo "tests knobs on rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_on.log" | head -12
echo "end $(( $(date +%s) - t0 ))s"
