#!/usr/bin/env bash
# Session 39. The bf16 small TMA kernel (session 38's prepared kernel, run 2026-12-04: level with CUTLASS
# swap-AB, 1.001x) streams 128-byte row parts per K step; the 2026-12-03 stream micro-benchmark reached
# 4.3-4.4 TB/s only where a row's bytes came >= 1 KiB at a time (cp.async 1 KiB rows, 1-D bulk copies of
# a tile-contiguous copy) against 4.0-4.2 with 128-byte row parts. Forms of the same kernel (one box per
# operand spanning KSPS 64-wide K parts of every row, maps {64 K, rows, K/64 (, G)}):
#   1 = 1 step a stage, 2 CTAs/SM (session 38's); 2 = 2 steps, 2 CTAs/SM; 3 = 4 steps, 1 CTA/SM;
#   4 = 2 steps, 1 CTA/SM. MEGAMOE_BF16_SMALL_TMA=<form> runs it in the bf16 split backend's swap-AB
#   cells; 0 = CUTLASS.
# Binaries built on the CPU machine from this session's tree (git diff in this folder: wide_stage.patch):
#   .carry/bw.tgz = megamoe + megamoe_gpu_tests. Carry [".carry"] holding only bw.tgz.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/bw
mkdir -p $B && tar xzf .carry/bw.tgz -C $B || exit 1
timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='GemmBf16Act.*' > "$R/tests_act.log" 2>&1
echo "GemmBf16Act rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|Failure|differs" "$R/tests_act.log" | head -12
for f in 2 3; do
  MEGAMOE_BF16_SMALL_TMA=$f timeout 60 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='SplitBf16*:*bf16_bf16_bf16*' > "$R/tests_split_f$f.log" 2>&1
  echo "split tests form $f rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_split_f$f.log" | head -6
done
for t in racecheck memcheck synccheck; do
  timeout 150 compute-sanitizer --tool $t $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='GemmBf16Act.FusedEqualsUnfusedAndCpuForEveryActivationAndKernel' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|^\[  PASSED|FAILED" "$R/san_$t.log" | head -3
done
CUDA=/usr/local/cuda
CUPTI_PIP=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.join(nvidia.cuda_cupti.__path__[0], "lib"))' 2>/dev/null || true)
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -I$CUDA/extras/CUPTI/include \
  -L$CUDA/lib64 -L$CUDA/extras/CUPTI/lib64 ${CUPTI_PIP:+-L$CUPTI_PIP} -lcupti || exit 1
for p in qwen3-30b-a3b mixtral-8x7b; do
  for k in 0 1 2 3 4; do
    MEGAMOE_BF16_SMALL_TMA=$k CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/tl_${p}_k$k.csv \
      LD_LIBRARY_PATH=$CUDA/lib64:$CUDA/extras/CUPTI/lib64${CUPTI_PIP:+:$CUPTI_PIP}:${LD_LIBRARY_PATH:-} timeout 90 \
      $B/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split --presets $p --tokens 128 --iters 50 \
      > "$R/tl_${p}_k$k.log" 2>&1
    echo "timeline $p form$k rc=$? $(( $(date +%s) - t0 ))s"
    python3 scripts/ktrace/timeline.py $R/tl_${p}_k$k.csv > $R/tl_${p}_k$k.timeline.txt
    grep -E "^ +[23] " $R/tl_${p}_k$k.timeline.txt
  done
done
gzip -f $R/*.csv
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=$B/megamoe@MEGAMOE_BF16_SMALL_TMA
AB_VARIANTS="cutlass=$M=0 f1=$M=1 f2=$M=2 f3=$M=3 f4=$M=4" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 540 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --presets $PR --tokens 8,32,128,256,512 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
