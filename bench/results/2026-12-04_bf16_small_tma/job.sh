#!/usr/bin/env bash
# Prepared in session 38 (no device time left), not yet run. A bf16 small-T grouped GEMM of our own:
# the W4A16 small tactic's TMA form (session 38: 1.027x over its cp.async form) with bf16 weights --
# 128 weight rows of one expert a CTA, 8 warps of mma.sync m16n8k16 (tokens in N: 32- or 64-token
# passes), one 64-wide K step a stage as two TMA boxes (weights 16 KB, tokens 4 / 8 KB, 128-byte
# swizzle), 5 / 4 stages, two CTAs per SM (two TMA issuers an SM: the 2026-12-03 stream
# micro-benchmark's 4.0-4.2 TB/s, against CUTLASS swap-AB's ~3.98 at qwen3-30b-a3b T = 128), FC1's
# activation in the epilogue (gate / up rows gq and gq + 8 of a warp: the interleaved W13).
# bf16_small_tma.patch (on 9d0e448): src/kernels/sm90/gemm/grouped_gemm_bf16_small_tma.{h,cu}; the bf16
# split backend runs it for the swap-AB cells with MEGAMOE_BF16_SMALL_TMA=1 (read once); GemmBf16Act's
# fused-vs-unfused-vs-CPU test gets two cases of it (32- and 64-token passes, I = K = 200: ragged N and
# a partial last K step, empty groups, poison outside). It compiles (72-123 registers, no spills).
# Build on the CPU machine: git apply the patch; (cd <build dir> && cmake . && ninja megamoe_cli
#   megamoe_gpu_tests); strip copies; tar czf .carry/bsm.tgz -C <dir> megamoe megamoe_gpu_tests; revert.
#   Carry [".carry"] holding only bsm.tgz.
# 1. GemmBf16Act.* (our kernel's cases whatever the knob), then the bf16 split / conformance / GEMM tests
#    with MEGAMOE_BF16_SMALL_TMA=1; racecheck / memcheck / synccheck on GemmBf16Act.FusedEquals*;
# 2. timelines of bf16 qwen3-30b-a3b / mixtral-8x7b T = 128, knob 0 and 1 (FC1 / FC2 us, TB/s);
# 3. A/B knob 0 vs 1, forced sm90_bf16_bf16_bf16_split, T = 8..512, four presets, best of two.
# Ship (as a tactic of the bf16 split / Mega backends, tuned) only beyond the spread.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/bsm && tar xzf .carry/bsm.tgz -C /tmp/bsm || exit 1
timeout 100 /tmp/bsm/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='GemmBf16Act.*' > "$R/tests_act.log" 2>&1
echo "GemmBf16Act rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_act.log" | head -12
mkdir -p "$R/knob1"
MEGAMOE_BF16_SMALL_TMA=1 scripts/ab_checks.sh "$R/knob1" /tmp/bsm/megamoe_gpu_tests "$t0" \
  'GroupedGemm*:SplitBf16*:*bf16_bf16_bf16*' 'GemmBf16Act.FusedEqualsUnfusedAndCpuForEveryActivationAndKernel'
CUDA=/usr/local/cuda
CUPTI_PIP=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.join(nvidia.cuda_cupti.__path__[0], "lib"))' 2>/dev/null || true)
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -I$CUDA/extras/CUPTI/include \
  -L$CUDA/lib64 -L$CUDA/extras/CUPTI/lib64 ${CUPTI_PIP:+-L$CUPTI_PIP} -lcupti || exit 1
for p in qwen3-30b-a3b mixtral-8x7b; do
  for k in 0 1; do
    MEGAMOE_BF16_SMALL_TMA=$k CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/tl_${p}_k$k.csv \
      LD_LIBRARY_PATH=$CUDA/lib64:$CUDA/extras/CUPTI/lib64${CUPTI_PIP:+:$CUPTI_PIP}:${LD_LIBRARY_PATH:-} timeout 90 \
      /tmp/bsm/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split --presets $p --tokens 128 --iters 50 \
      > "$R/tl_${p}_k$k.log" 2>&1
    echo "timeline $p knob$k rc=$? $(( $(date +%s) - t0 ))s"
    python3 scripts/ktrace/timeline.py $R/tl_${p}_k$k.csv | tee $R/tl_${p}_k$k.timeline.txt | tail -8
  done
done
gzip -f $R/*.csv
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=/tmp/bsm/megamoe@MEGAMOE_BF16_SMALL_TMA
AB_VARIANTS="cutlass=$M=0 ours=$M=1" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 480 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --presets $PR --tokens 8,32,128,256,512 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |T=  128|geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
