#!/usr/bin/env bash
# Session 40: the W4A16 wgmma tactic (`split_large`) with FC1's activation in its epilogue (no fp32 h,
# no activation kernel; bench/results/2026-12-04_large_T_timelines/: at qwen3-30b-a3b T = 8192 mxfp4 the
# activation kernel took ~143 us of 1.73 ms after FC1 wrote 403 MB of fp32 h), and the permute kernel
# loading a token's row indices before its stores. Binaries built on the CPU machine: .carry/la.tgz
# (megamoe + megamoe_gpu_tests of e7cc498 + this change; MEGAMOE_W4A16_LARGE_ACT=0 keeps h and the
# activation kernel), .carry/ship.tgz (megamoe of 51a19be: HEAD's kernels). Carry [".carry"].
# 1. W4A16 / fp4 GEMM and backend tests (W4A16ActEpilogue: fused = fp32 D + activation kernel bit for
#    bit, both large tactics, every activation, biases, 64- and 128-token passes), conformance of the
#    W4A16 backends; memcheck / racecheck / synccheck on W4A16ActEpilogue;
# 2. timelines mxfp4 qwen3-30b-a3b T = 2048 / 8192, base and new;
# 3. A/B base / new@0 / new@1: forced split_large mxfp4 T = 128..2048, `auto` mxfp4 T = 256, 1024, 2048, 8192,
#    `auto` nvfp4 T = 2048 / 8192; four presets.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/la
mkdir -p $B /tmp/ship && tar xzf .carry/la.tgz -C $B && tar xzf .carry/ship.tgz -C /tmp/ship || exit 1
timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*' > "$R/tests.log" 2>&1
echo "W4A16 tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -12
for t in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $t $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='LargeTactics/W4A16ActEpilogue.*' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|^\[  PASSED|FAILED" "$R/san_$t.log" | head -3
done
for T in 2048 8192; do
  for v in base new; do
    bin=$B/megamoe; [ $v = base ] && bin=/tmp/ship/megamoe
    scripts/ktrace/trace.sh $R/tl_qwen3_${T}_$v -- $bin bench --recipe w4a16_mxfp4 --presets qwen3-30b-a3b \
      --tokens $T --iters 50 > /tmp/tl.txt
    echo "timeline qwen3 T=$T $v rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^ +[0-9]+ |span" /tmp/tl.txt
  done
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=$B/megamoe@MEGAMOE_W4A16_LARGE_ACT
AB_VARIANTS="base=/tmp/ship/megamoe k0=$M=0 k1=$M=1" RUN_TIMEOUT=90 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 430 \
  "forced=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large --presets $PR --tokens 128,512,2048 --iters 50" \
  "auto_mx=--recipe w4a16_mxfp4 --presets $PR --tokens 256,1024,2048,8192 --iters 50" \
  "auto_nv=--recipe w4a16_nvfp4 --presets $PR --tokens 2048,8192 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline|r[12] " "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
