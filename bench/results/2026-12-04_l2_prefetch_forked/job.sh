#!/usr/bin/env bash
# Prepared in session 37 (device time spent), not yet run. The L2 prefetch of FC1's weights on a forked
# stream (l2_prefetch_forked.patch; session 38 ran it on 466e0d2): each split backend's run_stages starts
# sm90::launch_weight_prefetch (16 blocks x 32 lanes x 64 KiB bulk prefetches, ~2.9 TB/s: session 37's
# run2 rate, at which FC1 got 8.6 us faster) on the layer's own stream after an event on the caller's
# stream, and joins it back after the combine, so the route plan no longer waits on it (session 37's
# three forms in the caller's stream cost more than they gained, docs/BENCHMARKS.md).
# Build on the CPU machine: git apply bench/results/2026-12-04_l2_prefetch_forked/l2_prefetch_forked.patch;
#   (cd <build dir> && cmake . && ninja megamoe_cli megamoe_gpu_tests); strip copies of both;
#   tar czf .carry/v3.tgz -C <dir> megamoe megamoe_gpu_tests; revert the patch. Carry [".carry"] holding only
#   v3.tgz (the working tree is ~31 MB; tree + carry must stay under 64 MiB).
# 1. the whole GPU suite (the prefetch is on by default: every split test runs with it);
# 2. kernel timelines (scripts/ktrace) of fp8_block and bf16 qwen3-30b-a3b T = 128, knob 0 and 32: the
#    prefetch kernel beside the plan, FC1's time, whether the PDL chain survives the fork / join events;
# 3. A/B by MEGAMOE_L2_PREFETCH_MB: 0 (base) against 16 and 32, `auto`, bf16 / fp8_block T = 128..2048,
#    w4a16_mxfp4 T = 128..1024, four presets, alternated, best of two;
# 4. racecheck / memcheck on the prefetch tests.
# Ship (default 32, or the better size) only beyond the spread; else flip the default to 0 or drop it.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new && tar xzf .carry/v3.tgz -C /tmp/new || exit 1
timeout 240 /tmp/new/megamoe_gpu_tests --gtest_brief=1 > "$R/gpu_suite.log" 2>&1
echo "suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/gpu_suite.log" | head -20
# 466e0d2's act_kernel refactor had not run on a GPU: the fp8 tests once more with the prefetch off
# (so this checks 466e0d2's own code paths) and the fused-epilogue test under racecheck below.
MEGAMOE_L2_PREFETCH_MB=0 timeout 120 /tmp/new/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*Fp8*:*fp8*' \
  > "$R/fp8_mb0.log" 2>&1
echo "fp8 tests mb0 rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/fp8_mb0.log" | head -20
CUDA=/usr/local/cuda
CUPTI_PIP=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.join(nvidia.cuda_cupti.__path__[0], "lib"))' 2>/dev/null || true)
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -I$CUDA/extras/CUPTI/include \
  -L$CUDA/lib64 -L$CUDA/extras/CUPTI/lib64 ${CUPTI_PIP:+-L$CUPTI_PIP} -lcupti || exit 1
for recipe in fp8_block bf16; do
  for mb in 0 32; do
    MEGAMOE_L2_PREFETCH_MB=$mb CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/${recipe}_mb$mb.csv \
      LD_LIBRARY_PATH=$CUDA/lib64:$CUDA/extras/CUPTI/lib64${CUPTI_PIP:+:$CUPTI_PIP}:${LD_LIBRARY_PATH:-} timeout 90 \
      /tmp/new/megamoe bench --recipe $recipe --presets qwen3-30b-a3b --tokens 128 --iters 50 > "$R/${recipe}_mb$mb.log" 2>&1
    echo "$recipe mb$mb rc=$? $(( $(date +%s) - t0 ))s"
    python3 scripts/ktrace/timeline.py $R/${recipe}_mb$mb.csv | tee $R/${recipe}_mb$mb.timeline.txt
  done
done
gzip -f $R/*.csv
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=/tmp/new/megamoe@MEGAMOE_L2_PREFETCH_MB
AB_VARIANTS="mb0=$M=0 mb16=$M=16 mb32=$M=32" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 400 \
  "bf16=--recipe bf16 --presets $PR --tokens 128,256,512,1024,2048 --iters 50" \
  "fp8=--recipe fp8_block --presets $PR --tokens 128,256,512,1024,2048 --iters 50" \
  "w4=--recipe w4a16_mxfp4 --presets $PR --tokens 128,256,512,1024 --iters 50" > "$R/ab/ab_compare.txt" 2>&1
grep -E "T=  128|== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
for tool in racecheck memcheck; do
  timeout 75 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/new/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='SplitKernels.WeightPrefetch*:Fp8Block.L2PrefetchEqualsNoneBitwise:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' > "$R/san_$tool.log" 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|PASSED|FAILED" "$R/san_$tool.log" | head -3
done
echo "end $(( $(date +%s) - t0 ))s"
