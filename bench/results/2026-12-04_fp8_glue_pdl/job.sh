#!/usr/bin/env bash
# Prepared in session 34 (not run: no device time was left). The fp8_block split path launched its
# glue kernels without programmatic dependent launch (gaps of 0.0-0.4 us in the kernel timelines,
# where the bf16 path's permute and combine start 9-19 us early); MEGAMOE_SPLIT_FP8_PDL=1 (default 0)
# launches the route plan, permute+quant, act+quant and combine with PDL on a created stream.
# 1. fp8 GPU tests with the knob (Fp8Block.PdlEqualsPlainBitwise checks every split tactic bitwise
#    against the knob off, eager, in a graph and back to back) and racecheck / synccheck on that test;
# 2. `auto` with the knob off / on (one binary; the "pdl" wrapper sets the variable), alternated, best
#    of two, T = 16..2048 on the four presets (the cells the split path runs);
# 3. a kernel timeline of qwen3-30b-a3b T = 128 with the knob on.
# Binaries: .carry/base.tgz (megamoe, megamoe_gpu_tests of the tree, built on the CPU machine).
# Run from the repository root: bash bench/results/2026-12-04_fp8_glue_pdl/job_prepared.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/pdl && tar xzf .carry/base.tgz -C /tmp/base || exit 1
printf '#!/bin/sh\nMEGAMOE_SPLIT_FP8_PDL=1 exec /tmp/base/megamoe "$@"\n' > /tmp/pdl/megamoe && chmod +x /tmp/pdl/megamoe
MEGAMOE_SPLIT_FP8_PDL=1 scripts/ab_checks.sh "$R" /tmp/base/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' 'Fp8Block.PdlEqualsPlainBitwise'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/pdl/megamoe 2 "$t0" 420 \
  "auto=--recipe fp8_block --presets $PR --tokens 16,64,128,256,512,2048 --iters 50" | tail -n 28
CUDA=/usr/local/cuda
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -L$CUDA/lib64 -lcupti && \
  MEGAMOE_SPLIT_FP8_PDL=1 CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/pdl_qwen3.csv \
  LD_LIBRARY_PATH=$CUDA/lib64:${LD_LIBRARY_PATH:-} timeout 40 /tmp/base/megamoe bench --recipe fp8_block \
  --presets qwen3-30b-a3b --tokens 128 --iters 50 > "$R/pdl_trace.log" 2>&1
python3 scripts/ktrace/timeline.py $R/pdl_qwen3.csv | tee $R/pdl_qwen3.timeline.txt; gzip -f $R/*.csv
echo "end $(( $(date +%s) - t0 ))s"
